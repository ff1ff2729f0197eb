import { Injectable, type OnModuleInit } from '@nestjs/common';
import { canonicalJson } from '../../audit/canonical-json';
import type { Caller } from '../../auth/caller';
import { DomainError, notFound } from '../../common/domain-error';
import { AppConfig } from '../../config/app-config';
import { toolOf } from '../../config/model-tools';
import { defaultModelId, deploymentModels } from '../models/default-model';
import { parsePlannerId, SCRIPTED_FAMILY } from '../../config/planner-id';
import { PlannersService, type ScriptedPlannerView } from '../planning/planners.service';
import { ScriptedPlannersRepository } from '../planning/scripted-planners.repository';
import { MCP_FAMILY_NAME, MCP_PLANNER_ID } from '../remote/mcp-family';
import { RemotePlanners, remoteId } from '../remote/remote-planners.service';
import type { ComputerUseConfig } from '../settings/agent-config';
import { SettingsService } from '../settings/settings.service';
import { type AccessDecision, decideAccess, type RuleCaller } from './access-rule';
import { type CatalogEntry, type CatalogItem, OWN_KIND_ENTRIES } from './catalog-entries';
import { PlannerAccessRepository } from './planner-access.repository';

/** The most scripts of a tenant the catalog lists (GET /api/planners/scripted pages them all). */
const MAX_SCRIPTS_LISTED = 500;

export interface CatalogView {
  /** The deployment default's id: what an agent with no `planner` is planned by; null: none. */
  default: string | null;
  /** The caller's tags. */
  tags: string[];
  planners: CatalogItem[];
}

/** Whether an agent's `planner` may be used by the caller, and why (one sentence). */
export interface PlannerVerdict {
  available: boolean;
  why: string;
  /** The catalog id it resolved to; null for a model of the tenant's own (outside the catalog). */
  id: string | null;
}

/** A planner that is not available, for the config's PUT: 403 `planner_access_required`. */
export function plannerAccessRequired(why: string): DomainError {
  return new DomainError('forbidden', why, 'planner_access_required');
}

/** A run whose planner is not available, at its start: 403 `planner_unavailable`. */
export function plannerUnavailable(message: string): DomainError {
  return new DomainError('forbidden', message, 'planner_unavailable');
}

function item(entry: CatalogEntry, decision: AccessDecision): CatalogItem {
  return {
    id: entry.id,
    name: entry.name,
    family: entry.family,
    runs: entry.runs,
    pixels: entry.pixels,
    public: entry.public,
    tags: [...entry.tags],
    programs: [...entry.programs],
    available: decision.available,
    why: decision.why,
    ...(entry.runs === 'remote' ? { serving: entry.serving === true } : {}),
    ...(entry.tool ? { tool: entry.tool } : {}),
  };
}

/**
 * The planner catalog (docs/planners.md "Planners as a catalog"): every planner a tenant could name (the
 * deployment's model planners, the navigator, the tenant's scripts), each decided for the caller by
 * the five-step rule over the operator's allows, denies, tags and programs. Checked when a config
 * names a planner (the config's PUT) and again when each run starts.
 */
@Injectable()
export class PlannerCatalog implements OnModuleInit {
  constructor(
    private readonly config: AppConfig,
    private readonly access: PlannerAccessRepository,
    private readonly scripts: ScriptedPlannersRepository,
    private readonly planners: PlannersService,
    private readonly settings: SettingsService,
    private readonly remote: RemotePlanners,
  ) {}

  onModuleInit(): void {
    this.settings.addConfigCheck((caller, before, after) =>
      this.checkConfig(caller, before, after),
    );
  }

  async list(caller: Caller): Promise<CatalogView> {
    const who = await this.who(caller);
    const entries = [
      ...(await this.deploymentEntries(caller.tenant)),
      ...(await this.scriptEntries(caller.tenant)),
    ];
    return {
      default: defaultModelId(this.config),
      tags: [...who.tags],
      planners: entries.map((e) => item(e, decideAccess(e, who, who.grants))),
    };
  }

  /** One planner of the catalog; a scripted one with its script. 404 for anything else. */
  async get(
    caller: Caller,
    id: string,
  ): Promise<CatalogItem | (CatalogItem & Omit<ScriptedPlannerView, 'id' | 'name'>)> {
    const parts = parsePlannerId(id);
    if (parts?.kind === 'scripted') {
      const script = await this.planners.get(caller.tenant, parts.id);
      const entry = scriptEntry(caller.tenant, parts.id, script.name);
      const who = await this.who(caller);
      const { id: _id, name: _name, ...rest } = script;
      return { ...item(entry, decideAccess(entry, who, who.grants)), ...rest };
    }
    const entry = parts
      ? (await this.deploymentEntries(caller.tenant)).find((e) => e.id === parts.id)
      : undefined;
    if (!entry) throw notFound(`no planner ${JSON.stringify(id.slice(0, 100))}`);
    const who = await this.who(caller);
    return item(entry, decideAccess(entry, who, who.grants));
  }

  /**
   * May the caller use what an agent's `planner` names? An id of the catalog is decided by the
   * rule (a script whether or not it still exists: a missing one is refused when the run starts);
   * no planner is the deployment's default; a model object with the tenant's own key is outside
   * the catalog (its key needs the operator's secret grant); a model object with one of the
   * deployment's keys is that model planner when it is exactly that model, and refused otherwise.
   * Anything else: not available.
   */
  async verdict(
    caller: Pick<Caller, 'tenant' | 'subject'>,
    planner: unknown,
  ): Promise<PlannerVerdict> {
    const entry = await this.entryOf(caller.tenant, planner);
    if ('outside' in entry) return { available: true, why: entry.outside, id: null };
    if ('refused' in entry) return { available: false, why: entry.refused, id: null };
    const who = await this.who(caller);
    const decision = decideAccess(entry, who, who.grants);
    return { available: decision.available, why: decision.why, id: entry.id };
  }

  /**
   * Why `who` may not plan with what an agent's `planner` names, or null: the planner itself, then a
   * script's fallback (a planner like any other). For a run's start and for a planner put in force
   * while a run goes on, decided for whoever started it (docs/planners.md).
   */
  async unavailableFor(
    who: Pick<Caller, 'tenant' | 'subject'>,
    planner: unknown,
  ): Promise<{ why: string; id: string | null } | null> {
    const verdict = await this.verdict(who, planner);
    if (!verdict.available) return { why: verdict.why, id: verdict.id };
    const fallback = await this.planners.fallbackOf(who.tenant, planner);
    if (!fallback) return null;
    const backup = await this.verdict(who, fallback);
    return backup.available ? null : { why: `its script's fallback: ${backup.why}`, id: backup.id };
  }

  /**
   * The config's PUT: every agent whose planner is new or changed (a planner taken away later
   * stays configured, and its runs are refused when they start) names one the caller may use.
   */
  async checkConfig(
    caller: Caller,
    before: ComputerUseConfig | null,
    after: ComputerUseConfig,
  ): Promise<void> {
    for (const [name, agent] of Object.entries(after.agents)) {
      // An agent with no planner names none: its runs are checked against the default at start.
      if (agent.planner === null || agent.planner === undefined) continue;
      const previous = before?.agents[name]?.planner;
      if (previous !== undefined && canonicalJson(previous) === canonicalJson(agent.planner)) {
        continue;
      }
      const verdict = await this.verdict(caller, agent.planner);
      if (!verdict.available) throw plannerAccessRequired(verdict.why);
      await this.checkFallback(
        caller,
        await this.planners.fallbackOf(caller.tenant, agent.planner),
      );
    }
  }

  /**
   * A script's fallback (routine runs) is a planner like any other: one the caller may use, when
   * a script names it and when a config names that script. 403 `planner_access_required`.
   */
  async checkFallback(caller: Caller, fallback: unknown): Promise<void> {
    if (fallback === null || fallback === undefined) return;
    const verdict = await this.verdict(caller, fallback);
    if (!verdict.available) {
      throw plannerAccessRequired(`The script's fallback: ${verdict.why}`);
    }
  }

  private async who(
    caller: Pick<Caller, 'tenant' | 'subject'>,
  ): Promise<RuleCaller & { grants: AccessRowGrant[] }> {
    const found = await this.access.forCaller(caller.tenant, caller.subject);
    return {
      tenant: caller.tenant,
      subject: caller.subject,
      tags: found.tags,
      programs: found.programs,
      grants: found.grants.map((g) => ({
        kind: g.kind as 'allow' | 'deny',
        tenant: g.tenant,
        subject: g.subject,
        planner: g.planner!,
      })),
    };
  }

  /**
   * The deployment's planners: its model planners (the default model first), Warden's own kinds
   * with an id of their own (the navigator), the remote families the operator registered
   * (serving: a worker of `tenant` asked within 30 s).
   */
  private async deploymentEntries(tenant: string): Promise<CatalogEntry[]> {
    const entries: CatalogEntry[] = [];
    for (const m of deploymentModels(this.config)) {
      const parts = parsePlannerId(m.id);
      if (!parts) continue;
      const tool = toolOf(m.model.provider, m.model.model);
      entries.push({
        id: parts.id,
        family: parts.family,
        name: m.isDefault
          ? `the deployment's default model (${m.model.provider} ${m.model.model})`
          : `${m.model.provider} ${m.model.model}`,
        kind: 'model',
        runs: 'platform',
        pixels: true,
        ...(tool ? { tool } : {}),
        public: m.public,
        ...(m.isDefault
          ? { publicWhy: `${parts.id} is the deployment's default model, public to every tenant.` }
          : {}),
        tags: m.tags,
        programs: m.programs,
      });
    }
    entries.push(...OWN_KIND_ENTRIES);
    const [families, serving] = await Promise.all([this.remote.all(), this.remote.serving(tenant)]);
    for (const f of families) {
      entries.push({
        id: remoteId(f),
        family: f.family,
        name: `remote planner ${f.family}: decided by the tenant's own worker outside Warden${f.note ? ` (${f.note})` : ''}`,
        kind: 'remote',
        runs: 'remote',
        pixels: f.pixels,
        // Not public (docs/models.md): the operator allows it, or tags and programs make it available.
        public: false,
        tags: f.tags,
        programs: f.programs,
        serving: serving.has(f.family),
      });
    }
    // The calling agent over MCP (docs/mcp.md): not public, like a remote family.
    entries.push({
      id: MCP_PLANNER_ID,
      family: MCP_FAMILY_NAME,
      name: 'the agent calling Warden over MCP (/mcp): it decides each step by a tool call',
      kind: 'remote',
      runs: 'remote',
      pixels: true,
      public: false,
      tags: [],
      programs: [],
      serving: serving.has(MCP_FAMILY_NAME),
    });
    return entries;
  }

  private async scriptEntries(tenant: string): Promise<CatalogEntry[]> {
    const rows = await this.scripts.names(tenant, MAX_SCRIPTS_LISTED);
    return rows.map((r) => scriptEntry(tenant, `scripted-${r.id}`, r.name));
  }

  private async entryOf(
    tenant: string,
    planner: unknown,
  ): Promise<CatalogEntry | { outside: string } | { refused: string }> {
    const deployment = await this.deploymentEntries(tenant);
    const defaultId = defaultModelId(this.config);
    if (planner === null || planner === undefined) {
      const entry = deployment.find((e) => e.id === defaultId);
      // No default: the run is refused for that at its start, with its own reason.
      return entry ?? { outside: 'it names no planner' };
    }
    if (typeof planner === 'string') {
      const parts = parsePlannerId(planner);
      if (parts?.kind === 'scripted') return scriptEntry(tenant, parts.id, 'a script');
      const entry = parts ? deployment.find((e) => e.id === parts.id) : undefined;
      return (
        entry ?? {
          refused: `There is no planner ${JSON.stringify(planner.slice(0, 100))} in this deployment's catalog (GET /api/planners).`,
        }
      );
    }
    if (typeof planner === 'object' && !Array.isArray(planner)) {
      const named = planner as Record<string, unknown>;
      const models = deploymentModels(this.config);
      if (!models.some((m) => m.model.api_key_env === named.api_key_env)) {
        return { outside: "it is the tenant's own model, with its own key" };
      }
      // The deployment's key: only as exactly one of the deployment's model planners.
      const same = models.find(
        (m) =>
          m.model.api_key_env === named.api_key_env &&
          m.model.provider === named.provider &&
          m.model.model === named.model &&
          (m.model.base_url ?? null) === (named.base_url ?? null),
      );
      const entry = same ? deployment.find((e) => e.id === same.id) : undefined;
      return (
        entry ?? {
          refused: `That model uses the deployment's key ${String(named.api_key_env)} for a model the deployment does not offer with it: name a planner of the catalog by its id (GET /api/planners).`,
        }
      );
    }
    return { refused: 'That is not a planner.' };
  }
}

type AccessRowGrant = {
  kind: 'allow' | 'deny';
  tenant: string;
  subject: string | null;
  planner: string;
};

function scriptEntry(tenant: string, id: string, name: string): CatalogEntry {
  return {
    id,
    family: SCRIPTED_FAMILY,
    name,
    kind: 'scripted',
    runs: 'platform',
    pixels: false,
    public: true,
    publicWhy: `${id} is a script of tenant ${tenant}, public to its own tenant.`,
    tags: [],
    programs: [],
  };
}
