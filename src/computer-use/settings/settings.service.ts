import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { AppConfig } from '../../config/app-config';
import { caFileProblem } from '../../common/ca-file';
import type { Caller } from '../../auth/caller';
import { decodeCursor, encodeCursor } from '../../common/cursor';
import { conflict, forbidden, invalid, notFound } from '../../common/domain-error';
import {
  AGENT_NAME_PATTERN,
  type AgentConfig,
  type ComputerUseConfig,
  withDefaults,
} from './agent-config';
import { diffConfigs } from './config-diff';
import type { ConfigNotice } from './config-notice';
import type { ComputerUseConfigVersion } from './computer-use-config.entity';
import type { KillSwitchDto } from './dto/kill-switch.dto';
import type { KillSwitch } from './kill-switch.entity';
import type { PauseDto } from './dto/pause.dto';
import { parseConfigBody } from './parse-config';
import type { TenantPause } from './tenant-pause.entity';
import { grantChanges, grantsOf, scriptBound } from './script-grants';
import { KillSwitchState, SettingsRepository, type StoredGovernance } from './settings.repository';
import { missingReasons, weakeningRefusal, weakenings } from './weakening';
import { auditWeakenings } from './weakening-audit';

/** What GET answers: the config in force, with who made it and when. */
export interface ConfigView extends ComputerUseConfig {
  /** 0 before the first PUT: computer use is off and there are no agents. */
  version: number;
  updated_by: string | null;
  updated_at: string | null;
  /** What Warden tells the admin about this version (an upgrade rewrote it); [] for an admin's. */
  notices: ConfigNotice[];
  /**
   * By agent whose writes need no approval and whose planner is a script: the script content this
   * version grants it (script-grants.ts), and the version, person and time that granted it.
   */
  script_grants: Record<string, ScriptGrantView>;
}

export interface ScriptGrantView {
  /** The SHA-256 of the script's content (the `script_sha256` of its audit events). */
  sha256: string;
  version: number;
  granted_by: string;
  granted_at: string;
}

export interface ConfigVersionView {
  version: number;
  created_by: string;
  created_at: string;
  config: ComputerUseConfig;
  notices: ConfigNotice[];
}

export interface KillSwitchView {
  agent: string;
  engaged: boolean;
  reason: string | null;
  updated_by: string | null;
  updated_at: string | null;
}

export type { KillSwitchState } from './settings.repository';

export interface PauseView {
  paused: boolean;
  reason: string | null;
  updated_by: string | null;
  updated_at: string | null;
}

/** Whether one agent may act now, and its config in force (docs/step-flow.md: changes reach runs going). */
export interface Governance {
  enabled: boolean;
  /** The agent's config in force, normalised; null when the config no longer names it. */
  agent: AgentConfig | null;
  killSwitch: KillSwitchState | null;
  pause: { paused: boolean; reason: string | null } | null;
}

/** The governance as stored, with the agent's config in force normalised (its defaults filled). */
export function governanceOf(agent: string, stored: StoredGovernance): Governance {
  return {
    enabled: stored.enabled,
    agent: stored.agent
      ? withDefaults({ enabled: stored.enabled, agents: { [agent]: stored.agent as never } })
          .agents[agent]
      : null,
    killSwitch: stored.killSwitch,
    pause: stored.pause,
  };
}

/**
 * A check of a new config before it is stored, by a module above this one (the planner catalog:
 * docs/models.md); it throws the refusal.
 */
export type ConfigCheck = (
  caller: Caller,
  before: ComputerUseConfig | null,
  after: ComputerUseConfig,
) => Promise<void>;

/**
 * The admin config of computer use (docs/api.md): versioned, audited, and read by the engine through
 * `current`, `agent` and `killSwitch`. Changes to one tenant's config and kill switches are
 * serialised by a transaction-scoped advisory lock, so concurrent PUTs each get their own version.
 */
@Injectable()
export class SettingsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly settings: SettingsRepository,
    private readonly audit: AuditService,
    private readonly appConfig: AppConfig,
  ) {}

  private readonly checks: ConfigCheck[] = [];

  /** Adds a check every PUT of the config passes before it is stored. */
  addConfigCheck(check: ConfigCheck): void {
    this.checks.push(check);
  }

  /** The config in force, normalised; null before the first PUT (computer use is off). */
  async current(tenant: string): Promise<{ version: number; config: ComputerUseConfig } | null> {
    const head = await this.settings.head(tenant);
    return head ? { version: head.version, config: withDefaults(head.config) } : null;
  }

  /** One agent's config, normalised; null when the tenant has no such agent. */
  async agent(tenant: string, name: string): Promise<AgentConfig | null> {
    return (await this.current(tenant))?.config.agents[name] ?? null;
  }

  /** Everything that decides whether the agent may act now, read in one statement. */
  async governance(tenant: string, agent: string): Promise<Governance> {
    return governanceOf(agent, await this.settings.governance(tenant, agent));
  }

  /** The agent's kill switch; null when it was never set (not engaged). */
  async killSwitch(tenant: string, agent: string): Promise<KillSwitchState | null> {
    return this.settings.killSwitch(tenant, agent);
  }

  async view(tenant: string): Promise<ConfigView> {
    const head = await this.settings.head(tenant);
    return head
      ? this.toView(head, this.dataSource.manager)
      : {
          version: 0,
          updated_by: null,
          updated_at: null,
          notices: [],
          enabled: false,
          agents: {},
          script_grants: {},
        };
  }

  /** Replaces the config with the body, as a new version. */
  async replace(caller: Caller, body: unknown): Promise<ConfigView> {
    const { config, basedOn } = parseConfigBody(body);
    for (const [name, agent] of Object.entries(config.agents)) {
      const tls = agent.screen_tls;
      const caFile = tls && 'ca_file' in tls ? tls.ca_file : null;
      const problem = caFile ? caFileProblem(this.appConfig.CA_DIR, caFile) : null;
      if (problem) throw invalid(`agents.${name}.${problem}`);
    }
    const tenant = caller.tenant;
    return this.dataSource.transaction(async (manager) => {
      await this.settings.lockTenant(manager, tenant);
      const head = await this.settings.head(tenant, manager);
      const previous = head?.version ?? 0;
      if (basedOn !== undefined && basedOn !== previous) {
        throw conflict(
          `the config is at version ${previous}, not ${basedOn}: read it again and make the change on that`,
        );
      }
      const before = head ? withDefaults(head.config) : null;
      // What the scripts its no-approval agents name hold now is what this version grants.
      const uuids = scriptBound(config).map((bound) => bound.uuid);
      const grants = {
        before: head?.scriptGrants ?? {},
        after: grantsOf(config, await this.settings.scriptContents(manager, tenant, uuids)),
      };
      // Letting more happen without a person needs governance.weaken and a reason (docs/security.md).
      const weakened = weakenings(before, config, grants);
      if (weakened.length > 0 && !caller.permissions.has('governance.weaken')) {
        throw forbidden(weakeningRefusal(weakened));
      }
      const unexplained = missingReasons(weakened, config);
      if (unexplained) throw invalid(unexplained);
      for (const check of this.checks) await check(caller, before, config);
      const row = await this.settings.insertVersion(manager, {
        tenant,
        version: previous + 1,
        config,
        scriptGrants: grants.after,
        createdBy: caller.subject,
      });
      const diff = diffConfigs(before, config);
      await this.audit.record(
        {
          tenant,
          type: 'computer_use.config',
          actor: caller.subject,
          details: {
            version: row.version,
            previous_version: previous,
            token_id: caller.tokenId,
            ...diff,
            changes: [...diff.changes, ...grantChanges(grants.before, grants.after)],
          },
        },
        manager,
      );
      await auditWeakenings(this.audit, manager, caller, weakened, {
        version: row.version,
        reason: (agent) => config.agents[agent].reason,
      });
      return this.toView(row, manager);
    });
  }

  /** Versions, newest first. */
  async versions(
    tenant: string,
    limit: number,
    cursor?: string,
  ): Promise<{ items: ConfigVersionView[]; next_cursor: string | null }> {
    const before = cursor === undefined ? undefined : decodeCursor<[number]>(cursor, 'n')[0];
    const rows = await this.settings.versions(tenant, limit + 1, before);
    const page = rows.slice(0, limit);
    return {
      items: page.map((row) => ({
        version: row.version,
        created_by: row.createdBy,
        created_at: row.createdAt.toISOString(),
        config: withDefaults(row.config),
        notices: row.notices ?? [],
      })),
      next_cursor: rows.length > limit ? encodeCursor([page[page.length - 1].version]) : null,
    };
  }

  async killSwitchView(tenant: string, agent: string): Promise<KillSwitchView> {
    await this.requireAgent(this.dataSource.manager, tenant, agent);
    const row = await this.settings.killSwitchRow(tenant, agent);
    return row
      ? toKillSwitchView(row)
      : { agent, engaged: false, reason: null, updated_by: null, updated_at: null };
  }

  async setKillSwitch(caller: Caller, agent: string, body: KillSwitchDto): Promise<KillSwitchView> {
    const reason = body.reason?.trim() || null;
    if (body.engaged && !reason) {
      throw invalid(
        'reason is required when engaging the kill switch: say why the agent must stop',
      );
    }
    const tenant = caller.tenant;
    return this.dataSource.transaction(async (manager) => {
      // The same lock as config changes: the agent is checked against the version in force.
      await this.settings.lockTenant(manager, tenant);
      await this.requireAgent(manager, tenant, agent);
      const previous = await this.settings.killSwitchRow(tenant, agent, manager);
      const row = await this.settings.saveKillSwitch(manager, {
        tenant,
        agent,
        engaged: body.engaged,
        reason,
        updatedBy: caller.subject,
        updatedAt: new Date(),
      });
      await this.audit.record(
        {
          tenant,
          type: 'computer_use.kill_switch',
          actor: caller.subject,
          details: {
            agent,
            engaged: row.engaged,
            reason,
            previous: previous ? { engaged: previous.engaged, reason: previous.reason } : null,
            token_id: caller.tokenId,
          },
        },
        manager,
      );
      return toKillSwitchView(row);
    });
  }

  /** Another tenant's agent, like an unknown one, is simply not there. */
  async pauseView(tenant: string): Promise<PauseView> {
    const row = await this.settings.pauseRow(tenant);
    return row
      ? toPauseView(row)
      : { paused: false, reason: null, updated_by: null, updated_at: null };
  }

  /** Pauses or resumes every agent of the tenant (docs/step-flow.md), audited `computer_use.pause`. */
  async setPause(caller: Caller, body: PauseDto): Promise<PauseView> {
    const reason = body.reason?.trim() || null;
    if (body.paused && !reason) {
      throw invalid('reason is required when pausing: say why every agent of the tenant must stop');
    }
    const tenant = caller.tenant;
    return this.dataSource.transaction(async (manager) => {
      // The lock every send holds shared: no action is marked sending while this commits.
      await this.settings.lockTenant(manager, tenant);
      const previous = await this.settings.pauseRow(tenant, manager);
      const row = await this.settings.savePause(manager, {
        tenant,
        paused: body.paused,
        reason,
        updatedBy: caller.subject,
        updatedAt: new Date(),
      });
      await this.audit.record(
        {
          tenant,
          type: 'computer_use.pause',
          actor: caller.subject,
          details: {
            paused: row.paused,
            reason,
            previous: previous ? { paused: previous.paused, reason: previous.reason } : null,
            token_id: caller.tokenId,
          },
        },
        manager,
      );
      return toPauseView(row);
    });
  }

  private async requireAgent(manager: EntityManager, tenant: string, agent: string): Promise<void> {
    const head = AGENT_NAME_PATTERN.test(agent) ? await this.settings.head(tenant, manager) : null;
    if (!head || !Object.hasOwn(head.config.agents, agent)) {
      throw notFound(`no agent ${agent.slice(0, 80)} in this tenant's computer-use config`);
    }
  }

  /** The version as GET answers it, its script grants with who granted each, read with `manager`. */
  private async toView(row: ComputerUseConfigVersion, manager: EntityManager): Promise<ConfigView> {
    const config = withDefaults(row.config);
    const grants = await this.settings.scriptGrantsSince(manager, row.tenant, row.version);
    return {
      version: row.version,
      updated_by: row.createdBy,
      updated_at: row.createdAt.toISOString(),
      notices: row.notices ?? [],
      enabled: config.enabled,
      agents: config.agents,
      script_grants: Object.fromEntries(
        grants.map((g) => [
          g.agent,
          {
            sha256: g.sha256,
            version: g.version,
            granted_by: g.grantedBy,
            granted_at: g.grantedAt.toISOString(),
          },
        ]),
      ),
    };
  }
}

function toKillSwitchView(row: KillSwitch): KillSwitchView {
  return {
    agent: row.agent,
    engaged: row.engaged,
    reason: row.reason,
    updated_by: row.updatedBy,
    updated_at: row.updatedAt.toISOString(),
  };
}

function toPauseView(row: TenantPause): PauseView {
  return {
    paused: row.paused,
    reason: row.reason,
    updated_by: row.updatedBy,
    updated_at: row.updatedAt.toISOString(),
  };
}
