import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import type { Caller } from '../../auth/caller';
import { conflict, invalid, notFound } from '../../common/domain-error';
import { AppConfig } from '../../config/app-config';
import { defaultModel, deploymentModels } from '../models/default-model';
import { ModelsService } from '../models/models.service';
import type { ModelPlannerConfig } from '../settings/agent-config';
import { checkScript, show } from './check-script';
import { ModelPlanner } from './model-planner';
import { ownPlanner } from './planner-kinds';
import { RemotePlanners } from '../remote/remote-planners.service';
import type { Planner } from '../planner-contract/planner';
import { scriptSha256 } from '../planner-contract/script-sha256';
import { ScriptGrantsService } from '../settings/script-grants.service';
import type { Weakening } from '../settings/weakening';
import type { Script } from './script.types';
import { ScriptedPlanner, type ScriptedPlannerOptions } from './scripted-planner';
import { ScriptedPlannerRecord } from './scripted-planner.entity';
import { ScriptedPlannersRepository } from './scripted-planners.repository';

/** The most live scripted planners a tenant may have. */
export const SCRIPTED_PLANNERS_MAX = 100;

/** A scripted planner's id in the API and in an agent's `planner`: `scripted-<uuid>`. */
export const SCRIPTED_PREFIX = 'scripted-';
const SCRIPTED_REF = /^scripted-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The row id in a planner reference, or null when it is not a scripted planner's. */
export function scriptedRowId(ref: unknown): string | null {
  if (typeof ref !== 'string') return null;
  const m = SCRIPTED_REF.exec(ref);
  return m ? m[1].toLowerCase() : null;
}

export interface ScriptedPlannerView {
  id: string;
  name: string;
  script: Script;
  /** The run the script was saved from; null: written by hand. */
  source_run_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** A list item: everything but the script (a page of whole scripts could weigh megabytes). */
export type ScriptedPlannerSummary = Omit<ScriptedPlannerView, 'script'> & { step_count: number };

export interface PlannerPage {
  items: ScriptedPlannerSummary[];
  next_cursor: string | null;
}

export const AUDIT_PLANNER = {
  created: 'computer_use.planner.created',
  updated: 'computer_use.planner.updated',
  deleted: 'computer_use.planner.deleted',
} as const;

function checked(script: unknown): Script {
  const result = checkScript(script);
  if (!result.ok) throw invalid(result.error);
  return result.script;
}

/** What a planner's audit event says of the agents whose grant the change moved; nothing for none. */
function regrantedFor(weakened: readonly Weakening[], reason: string | null | undefined) {
  if (weakened.length === 0) return {};
  return { regranted_agents: weakened.map((w) => w.agent), reason: reason?.trim() };
}

function noPlanner(ref: unknown): Error {
  return notFound(`no planner ${show(ref, 100)}`);
}

function toView(row: ScriptedPlannerRecord): ScriptedPlannerView {
  return {
    id: SCRIPTED_PREFIX + row.id,
    name: row.name,
    script: row.script,
    source_run_id: row.sourceRunId ?? null,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Scripted planners (docs/models.md): stored per tenant, checked when written, audited. */
@Injectable()
export class PlannersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly planners: ScriptedPlannersRepository,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
    private readonly models: ModelsService,
    private readonly remote: RemotePlanners,
    private readonly grants: ScriptGrantsService,
  ) {}

  async create(
    caller: Caller,
    name: string,
    script: unknown,
    options: { sourceRunId?: string } = {},
  ): Promise<ScriptedPlannerView> {
    const normal = checked(script);
    return this.dataSource.transaction(async (manager) => {
      // One tenant's scripts at a time: two creates cannot both pass the count.
      const live = await this.planners.lockAndCount(manager, caller.tenant);
      if (live >= SCRIPTED_PLANNERS_MAX) {
        throw conflict(
          `tenant ${caller.tenant} has ${live} scripted planners, the most it may have; delete one first (DELETE /api/planners/{id})`,
        );
      }
      const now = new Date();
      const row = await this.planners.create(manager, {
        sourceRunId: options.sourceRunId ?? null,
        tenant: caller.tenant,
        name,
        script: normal,
        createdBy: caller.subject,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      await this.record(manager, caller, AUDIT_PLANNER.created, row, {
        ...(row.sourceRunId ? { source_run_id: row.sourceRunId } : {}),
        step_count: normal.steps.length,
        script_sha256: scriptSha256(normal),
      });
      return toView(row);
    });
  }

  /** The tenant's planners, oldest first. */
  async list(tenant: string, limit: number, cursor?: string): Promise<PlannerPage> {
    const page = await this.planners.page(tenant, limit, cursor);
    return {
      items: page.items.map((row) => {
        const { script, ...view } = toView(row);
        return { ...view, step_count: script.steps.length };
      }),
      next_cursor: page.next_cursor,
    };
  }

  async get(tenant: string, ref: string): Promise<ScriptedPlannerView> {
    const row = await this.findScripted(tenant, ref);
    if (!row) throw noPlanner(ref);
    return toView(row);
  }

  /**
   * Replaces the script (and the name, when given: null, like leaving it out, keeps it). Runs
   * already going read the new script from their next step. New content for a script that an
   * agent whose writes need no approval names is that agent's weakening (docs/security.md): it
   * needs governance.weaken and `reason`, and grants the new content to the agent.
   */
  async update(
    caller: Caller,
    ref: string,
    change: { name?: string | null; script: unknown; reason?: string | null },
  ): Promise<ScriptedPlannerView> {
    const normal = checked(change.script);
    return this.dataSource.transaction(async (manager) => {
      // The config's lock first, then the script's row: the order a config change takes them in.
      await this.grants.lock(manager, caller.tenant);
      const row = await this.lockLive(manager, caller.tenant, ref);
      const before = { name: row.name, script_sha256: scriptSha256(row.script) };
      row.script = normal;
      if (change.name != null) row.name = change.name;
      row.updatedAt = new Date();
      await this.planners.save(manager, row);
      // Granted as the engine will read it: from the table, after the round trip through jsonb.
      const stored = await this.planners.scriptIn(manager, caller.tenant, row.id);
      const weakened = await this.grants.scriptChanged(manager, caller, {
        plannerId: SCRIPTED_PREFIX + row.id,
        uuid: row.id,
        content: stored,
        reason: change.reason,
      });
      await this.record(manager, caller, AUDIT_PLANNER.updated, row, {
        step_count: normal.steps.length,
        script_sha256: scriptSha256(stored),
        previous_script_sha256: before.script_sha256,
        ...(before.name !== row.name ? { previous_name: before.name } : {}),
        ...regrantedFor(weakened, change.reason),
      });
      return toView(row);
    });
  }

  /**
   * Soft delete: from now on the planner is not found, and a run naming it is refused at start.
   * Deleting a script that an agent whose writes need no approval names is that agent's weakening
   * (as replacing it is): governance.weaken and `reason`.
   */
  async remove(caller: Caller, ref: string, reason?: string | null): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.grants.lock(manager, caller.tenant);
      const row = await this.lockLive(manager, caller.tenant, ref);
      await this.planners.softDelete(manager, row.id, new Date());
      const weakened = await this.grants.scriptChanged(manager, caller, {
        plannerId: SCRIPTED_PREFIX + row.id,
        uuid: row.id,
        content: null,
        reason,
      });
      await this.record(manager, caller, AUDIT_PLANNER.deleted, row, {
        script_sha256: scriptSha256(row.script),
        ...regrantedFor(weakened, reason),
      });
    });
  }

  /**
   * A live scripted planner of the tenant by its reference (`scripted-<uuid>`), or null (also for
   * anything that is not such a reference, so an agent's whole `planner` value can be passed).
   */
  async findScripted(tenant: string, ref: unknown): Promise<ScriptedPlannerRecord | null> {
    const id = scriptedRowId(ref);
    return id ? this.planners.findLive(tenant, id) : null;
  }

  /**
   * The planner an agent's `planner` names, for the engine: a `ScriptedPlanner` over the stored
   * script for `scripted-<uuid>`; a kind's own planner for its id, exactly (planner-kinds.ts: the
   * `NavigatorPlanner`); a `ModelPlanner` for a model config, and for no planner at all
   * when the deployment has a default model; a `RemotePlanner` for a registered remote family's id;
   * null for an unknown, deleted or other tenant's scripted planner, and for anything else.
   */
  async plannerFor(
    tenant: string,
    plannerRef: unknown,
    options?: ScriptedPlannerOptions,
  ): Promise<Planner | null> {
    const model = this.modelFor(plannerRef);
    if (model) return new ModelPlanner(model, this.models);
    const own = ownPlanner(plannerRef);
    if (own) return own;
    const id = scriptedRowId(plannerRef);
    if (!id) return this.remote.plannerFor(plannerRef);
    const script = await this.planners.script(tenant, id);
    if (!script) return null;
    const fallback = script.fallback === undefined ? null : this.modelFor(script.fallback);
    // A fallback that names no model of this deployment (any more): the script runs without it.
    return new ScriptedPlanner(script, {
      ...options,
      ...(fallback ? { fallback: new ModelPlanner(fallback, this.models) } : {}),
    });
  }

  /** The fallback a scripted planner names (routine runs), or null. */
  async fallbackOf(tenant: string, plannerRef: unknown): Promise<Script['fallback'] | null> {
    const id = scriptedRowId(plannerRef);
    if (!id) return null;
    const script = await this.planners.script(tenant, id);
    return script?.fallback ?? null;
  }

  /** The parameters a scripted planner declares (routine runs); [] for any other planner. */
  async parametersOf(tenant: string, plannerRef: unknown): Promise<string[]> {
    const id = scriptedRowId(plannerRef);
    if (!id) return [];
    const script = await this.planners.script(tenant, id);
    return script?.parameters ?? [];
  }

  /**
   * Why a run of an agent with this `planner` cannot start, beyond the planner existing: a model's
   * key not granted or unset, a cost cap without prices. Null when nothing stands in the way.
   */
  async reasonNotUsable(
    tenant: string,
    plannerRef: unknown,
  ): Promise<{ message: string; reason?: string } | null> {
    const model = this.modelFor(plannerRef);
    if (model) return this.models.reasonNotUsable(tenant, model);
    const fallback = await this.fallbackOf(tenant, plannerRef);
    if (fallback) {
      const fallbackModel = this.modelFor(fallback);
      if (!fallbackModel) {
        return { message: "its script's fallback names no model planner of this deployment" };
      }
      const notUsable = await this.models.reasonNotUsable(tenant, fallbackModel);
      if (notUsable)
        return { ...notUsable, message: `its script's fallback: ${notUsable.message}` };
    }
    if (plannerRef === null || plannerRef === undefined) {
      return {
        message:
          'it names no planner and this deployment has no default model (DEFAULT_MODEL_PROVIDER)',
      };
    }
    return null;
  }

  /** Why a run of a remote planner cannot start now (too many steps waiting); null otherwise. */
  busyReason(tenant: string, plannerRef: unknown): Promise<string | null> {
    return this.remote.busyReason(tenant, plannerRef);
  }

  /**
   * The model an agent's `planner` means: its own config, the deployment's default for none, or a
   * model planner of the deployment by its catalog id.
   */
  private modelFor(plannerRef: unknown): ModelPlannerConfig | null {
    if (plannerRef === null || plannerRef === undefined) return defaultModel(this.config);
    // A model planner of the deployment named by its catalog id (docs/models.md).
    if (typeof plannerRef === 'string') {
      return deploymentModels(this.config).find((m) => m.id === plannerRef)?.model ?? null;
    }
    if (typeof plannerRef === 'object' && !Array.isArray(plannerRef)) {
      return plannerRef as ModelPlannerConfig;
    }
    return null;
  }

  private async lockLive(
    manager: EntityManager,
    tenant: string,
    ref: string,
  ): Promise<ScriptedPlannerRecord> {
    const id = scriptedRowId(ref);
    const row = id ? await this.planners.lockLive(manager, tenant, id) : null;
    if (!row) throw noPlanner(ref);
    return row;
  }

  private record(
    manager: EntityManager,
    caller: Caller,
    type: string,
    row: ScriptedPlannerRecord,
    details: Record<string, unknown>,
  ) {
    return this.audit.record(
      {
        tenant: caller.tenant,
        type,
        actor: caller.subject,
        details: { planner_id: SCRIPTED_PREFIX + row.id, name: row.name, ...details },
      },
      manager,
    );
  }
}
