import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { escapeLiteral, type PoolClient, type QueryResult } from 'pg';
import { DataSource, EntityManager, LessThan } from 'typeorm';
import { inlineParams } from '../../sql/sql';
import { ComputerUseConfigVersion } from './computer-use-config.entity';
import { KillSwitch } from './kill-switch.entity';
import { TenantPause } from './tenant-pause.entity';

export interface KillSwitchState {
  engaged: boolean;
  reason: string | null;
}

/**
 * Everything an admin can switch that decides whether one agent of a tenant may act now, as stored:
 * computer use on, the agent in the config in force (its config as stored, or null), its kill
 * switch, the tenant's pause.
 */
export interface StoredGovernance {
  enabled: boolean;
  agent: Record<string, unknown> | null;
  killSwitch: KillSwitchState | null;
  pause: { paused: boolean; reason: string | null } | null;
}

/** One agent's script grant in a config version, and the version that made it. */
export interface ScriptGrantOrigin {
  agent: string;
  /** The SHA-256 of the script content granted. */
  sha256: string;
  /** The config version that granted this content to this agent. */
  version: number;
  grantedBy: string;
  grantedAt: Date;
}

/** The lock key that serialises a tenant's config, kill-switch and pause changes. */
const tenantLock = (tenant: string) => `hashtextextended('computer_use_config:' || ${tenant}, 0)`;
const TENANT_LOCK = tenantLock('$1');

/**
 * The same governance as SQL for a statement over `runs r` (one row, the run being acted for):
 * columns `enabled`, `agent_configured`, `writes_need_approval` (the agent's config in force holds
 * its writes for a person; true unless it says `require_write_approval: false`),
 * `granted_script_sha256` (the script content granted to it, script-grants.ts), `kill_engaged`,
 * `kill_reason`, `paused`, `pause_reason`.
 * For the statement that marks an action `sending`, so that they are checked with the effect.
 */
export const GOVERNANCE_COLUMNS = `
  COALESCE(v.enabled, false) AS enabled, COALESCE(v.agent_configured, false) AS agent_configured,
  COALESCE(v.writes_need_approval, true) AS writes_need_approval,
  COALESCE(v.stages_typing, false) AS stages_typing,
  v.granted_script_sha256,
  COALESCE(k.engaged, false) AS kill_engaged, k.reason AS kill_reason,
  COALESCE(p.paused, false) AS paused, p.reason AS pause_reason`;

/** The joins GOVERNANCE_COLUMNS needs, after `FROM runs r`. */
export const GOVERNANCE_JOINS = `
  LEFT JOIN LATERAL (
    SELECT (c.config->>'enabled')::boolean AS enabled, (c.config->'agents') ? r.agent AS agent_configured,
           (c.config->'agents'->r.agent->>'require_write_approval')::boolean IS DISTINCT FROM false
             AS writes_need_approval,
           c.config->'agents'->r.agent->>'approve_at' = 'commit' AS stages_typing,
           c.script_grants->>r.agent AS granted_script_sha256,
           c.config->'agents'->r.agent AS agent_config
      FROM computer_use_configs c WHERE c.tenant = r.tenant ORDER BY c.version DESC LIMIT 1) v ON true
  LEFT JOIN computer_use_kill_switches k ON k.tenant = r.tenant AND k.agent = r.agent
  LEFT JOIN computer_use_pauses p ON p.tenant = r.tenant`;

/**
 * StoredGovernance's columns for a statement over `runs r` with GOVERNANCE_JOINS (the run being
 * acted for): read with the run before every step job (storedGovernance turns them back).
 */
export const STORED_GOVERNANCE_COLUMNS = `
  v.enabled AS governance_enabled, v.agent_config AS governance_agent,
  k.engaged AS kill_engaged, k.reason AS kill_reason, p.paused, p.reason AS pause_reason`;

/** A row's governance columns (as `governance` and STORED_GOVERNANCE_COLUMNS name them). */
export interface GovernanceRow {
  governance_enabled: boolean | null;
  governance_agent: Record<string, unknown> | null;
  kill_engaged: boolean | null;
  kill_reason: string | null;
  paused: boolean | null;
  pause_reason: string | null;
}

/** The governance a row's columns say; a row with none (no config yet) enables nothing. */
export function storedGovernance(row: GovernanceRow | undefined): StoredGovernance {
  return {
    enabled: row?.governance_enabled === true,
    agent: row?.governance_agent ?? null,
    killSwitch:
      row?.kill_engaged === null || row?.kill_engaged === undefined
        ? null
        : { engaged: row.kill_engaged, reason: row.kill_reason },
    pause:
      row?.paused === null || row?.paused === undefined
        ? null
        : { paused: row.paused, reason: row.pause_reason },
  };
}

/**
 * The computer-use config versions and kill switches of each tenant. Changes to one tenant's are
 * serialised by a transaction-scoped advisory lock (`lockTenant`).
 */
@Injectable()
export class SettingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Serialises the tenant's config, kill-switch and pause changes until the transaction ends. */
  async lockTenant(manager: EntityManager, tenant: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(${TENANT_LOCK})`, [tenant]);
  }

  /**
   * Held by a transaction that acts on the tenant's behalf (marks an action `sending`): no config,
   * kill-switch or pause change commits while it is held, and its next statement sees every one
   * that committed before. Actions do not wait for each other.
   */
  async lockTenantShared(manager: EntityManager, tenant: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock_shared(${TENANT_LOCK})`, [tenant]);
  }

  /**
   * One statement in a transaction of its own that holds the tenant's governance lock (shared)
   * before it: the statement sees every config, kill-switch and pause change that committed before,
   * and none commits until it has (lockTenantShared). BEGIN, the lock, the statement and COMMIT go
   * in one round trip: the protocol that sends several statements at once takes no parameters, so
   * the tenant and the statement's parameters go as quoted literals (`inlineParams`). Each
   * statement of such a round trip takes its own snapshot, so the statement still reads after the
   * lock is held.
   */
  async underSharedLock<T>(tenant: string, sql: string, params: unknown[]): Promise<T[]> {
    const text = [
      'BEGIN',
      `SELECT pg_advisory_xact_lock_shared(${tenantLock(escapeLiteral(tenant))})`,
      inlineParams(sql, params),
      'COMMIT',
    ].join(';\n');
    const runner = this.dataSource.createQueryRunner();
    try {
      const client = (await runner.connect()) as PoolClient;
      const results = (await client.query(text)) as unknown as QueryResult[];
      return results[2].rows as T[];
    } catch (error) {
      // Whichever statement failed, nothing of the transaction stays (nor the lock).
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /** One agent's config in force, as stored, in the caller's transaction; null when not named. */
  async agentInForce(
    manager: EntityManager,
    tenant: string,
    agent: string,
  ): Promise<Record<string, unknown> | null> {
    const rows: Array<{ agent: Record<string, unknown> | null }> = await manager.query(
      `SELECT config->'agents'->$2 AS agent FROM computer_use_configs
        WHERE tenant = $1 ORDER BY version DESC LIMIT 1`,
      [tenant, agent],
    );
    return rows[0]?.agent ?? null;
  }

  /**
   * The content of the tenant's live scripts among `uuids`, by row id, in the caller's transaction:
   * what a config version's script grants are taken from (script-grants.ts). Only this reads the
   * scripted_planners table outside planning/ (scripted-planners.repository.ts owns it).
   */
  async scriptContents(
    manager: EntityManager,
    tenant: string,
    uuids: readonly string[],
  ): Promise<Map<string, unknown>> {
    if (uuids.length === 0) return new Map();
    const rows: Array<{ id: string; script: unknown }> = await manager.query(
      `SELECT id, script FROM scripted_planners
        WHERE tenant = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL`,
      [tenant, uuids],
    );
    return new Map(rows.map((row) => [row.id, row.script]));
  }

  /** The governance of one agent now, in one statement. */
  async governance(tenant: string, agent: string): Promise<StoredGovernance> {
    const rows: GovernanceRow[] = await this.dataSource.query(
      `SELECT v.enabled AS governance_enabled, v.agent AS governance_agent,
              k.engaged AS kill_engaged, k.reason AS kill_reason, p.paused, p.reason AS pause_reason
         FROM (SELECT 1) one
         LEFT JOIN LATERAL (
           SELECT (config->>'enabled')::boolean AS enabled, config->'agents'->$2 AS agent
             FROM computer_use_configs WHERE tenant = $1 ORDER BY version DESC LIMIT 1) v ON true
         LEFT JOIN computer_use_kill_switches k ON k.tenant = $1 AND k.agent = $2
         LEFT JOIN computer_use_pauses p ON p.tenant = $1`,
      [tenant, agent],
    );
    return storedGovernance(rows[0]);
  }

  pauseRow(tenant: string, manager: EntityManager = this.dataSource.manager) {
    return manager.getRepository(TenantPause).findOneBy({ tenant });
  }

  savePause(manager: EntityManager, row: Partial<TenantPause>): Promise<TenantPause> {
    const repo = manager.getRepository(TenantPause);
    return repo.save(repo.create(row));
  }

  /** The config version in force (the newest), or null before the first PUT. */
  head(
    tenant: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ComputerUseConfigVersion | null> {
    return manager.getRepository(ComputerUseConfigVersion).findOne({
      where: { tenant },
      order: { version: 'DESC' },
    });
  }

  /**
   * An insert, never an upsert: the primary key refuses a second row of the same version. Its time
   * is taken now, under the tenant's lock, not when the transaction began.
   */
  async insertVersion(manager: EntityManager, row: Partial<ComputerUseConfigVersion>) {
    const version = manager.create(ComputerUseConfigVersion, { createdAt: new Date(), ...row });
    await manager.getRepository(ComputerUseConfigVersion).insert(version);
    return version;
  }

  /**
   * The script grants of the tenant's `version`, each with the version that granted that content
   * to that agent: the first of the unbroken run of versions up to `version` whose grant for the
   * agent is the same hash (a version that dropped or changed it ends the run), with who wrote it
   * and when. Agents by name.
   */
  async scriptGrantsSince(
    manager: EntityManager,
    tenant: string,
    version: number,
  ): Promise<ScriptGrantOrigin[]> {
    const rows: Array<{
      agent: string;
      sha256: string;
      version: number;
      created_by: string;
      created_at: Date;
    }> = await manager.query(
      `SELECT g.agent, g.sha256, first.version, first.created_by, first.created_at
         FROM computer_use_configs head
         CROSS JOIN LATERAL jsonb_each_text(head.script_grants) AS g(agent, sha256)
         CROSS JOIN LATERAL (
           SELECT c.version, c.created_by, c.created_at FROM computer_use_configs c
            WHERE c.tenant = head.tenant AND c.version <= head.version
              AND c.version > COALESCE((
                SELECT max(b.version) FROM computer_use_configs b
                 WHERE b.tenant = head.tenant AND b.version < head.version
                   AND (b.script_grants->>g.agent) IS DISTINCT FROM g.sha256), 0)
            ORDER BY c.version LIMIT 1) first
        WHERE head.tenant = $1 AND head.version = $2
        ORDER BY g.agent`,
      [tenant, version],
    );
    return rows.map((row) => ({
      agent: row.agent,
      sha256: row.sha256,
      version: row.version,
      grantedBy: row.created_by,
      grantedAt: row.created_at,
    }));
  }

  /** Versions, newest first, below `before` (a version number) when given. */
  versions(tenant: string, limit: number, before?: number): Promise<ComputerUseConfigVersion[]> {
    return this.dataSource.getRepository(ComputerUseConfigVersion).find({
      where: before === undefined ? { tenant } : { tenant, version: LessThan(before) },
      order: { version: 'DESC' },
      take: limit,
    });
  }

  /** The agent's kill switch, read before every step and every send: one plain statement. */
  async killSwitch(tenant: string, agent: string): Promise<KillSwitchState | null> {
    const rows: KillSwitchState[] = await this.dataSource.query(
      `SELECT engaged, reason FROM computer_use_kill_switches WHERE tenant = $1 AND agent = $2`,
      [tenant, agent],
    );
    return rows.length > 0 ? { engaged: rows[0].engaged, reason: rows[0].reason } : null;
  }

  killSwitchRow(
    tenant: string,
    agent: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<KillSwitch | null> {
    return manager.getRepository(KillSwitch).findOneBy({ tenant, agent });
  }

  saveKillSwitch(manager: EntityManager, row: Partial<KillSwitch>): Promise<KillSwitch> {
    const repo = manager.getRepository(KillSwitch);
    return repo.save(repo.create(row));
  }
}
