import { Injectable } from '@nestjs/common';
import { charName, hiddenCharacterProblem } from '@warden/protocol';
import { type AuditEntry, AuditService } from '../../audit/audit.service';
import type { Caller } from '../../auth/caller';
import { conflict, DomainError, invalid, notFound } from '../../common/domain-error';
import { checkRunParams, type Params } from '../planning/script-params';
import { SecretGrants } from '../../secrets/secret-grants.service';
import { PlannerCatalog, plannerUnavailable } from '../catalog/planner-catalog.service';
import { PlannersService } from '../planning/planners.service';
import type { AgentConfig } from '../settings/agent-config';
import { SettingsService } from '../settings/settings.service';
import type { StartRunDto } from './dto/start-run.dto';

/** The `computer_use.refused` event of a run that may not start (docs/security.md), in the caller's tenant. */
export function runRefused(
  caller: Caller,
  details: { agent?: string; goal?: string; why: string } & Record<string, unknown>,
): AuditEntry {
  return { tenant: caller.tenant, type: 'computer_use.refused', actor: caller.subject, details };
}

/** The control characters a goal may hold: it may run over lines. */
const GOAL_BREAKS: ReadonlySet<string> = new Set(['\t', '\n', '\r']);

/** The 400 of a goal holding a character a person could not see as it is. */
function hiddenInGoal(problem: NonNullable<ReturnType<typeof hiddenCharacterProblem>>): string {
  const found = problem.kind === 'surrogate' ? 'a lone surrogate' : charName(problem.char);
  return `goal must not contain control, invisible or bidirectional characters (it has ${found}): a person reading the run would not see what the planner is told`;
}

/** What a run starts with: the config version and the agent's config in it. */
export interface Admitted {
  version: number;
  agent: AgentConfig;
  /** The script's parameters, checked; null when its planner declares none. */
  params: Params | null;
}

/**
 * Whether a run may start (docs/step-flow.md, docs/screen-host.md, docs/security.md): computer use on, the agent configured, its kill
 * switch off, a planner the caller may use (the catalog's rule), its screen host token granted for
 * the host and set, a planner Warden can use (a model's key granted for its endpoint). A refusal is audited `computer_use.refused` with the reason
 * and thrown.
 */
@Injectable()
export class RunAdmission {
  constructor(
    private readonly settings: SettingsService,
    private readonly planners: PlannersService,
    private readonly catalog: PlannerCatalog,
    private readonly secrets: SecretGrants,
    private readonly audit: AuditService,
  ) {}

  async admit(caller: Caller, body: StartRunDto): Promise<Admitted> {
    const refuse = async (
      error: DomainError,
      details: Record<string, unknown> = {},
    ): Promise<never> => {
      await this.audit.record(
        runRefused(caller, { agent: body.agent, goal: body.goal, why: error.message, ...details }),
      );
      throw error;
    };
    const current = await this.settings.current(caller.tenant);
    const agent = current?.config.agents[body.agent];
    if (!current?.config.enabled) {
      return refuse(
        conflict('computer use is turned off for this tenant (PUT /api/admin/computer-use)'),
      );
    }
    if (!agent)
      return refuse(notFound(`no agent "${body.agent}" in this tenant's computer-use config`));
    const kill = await this.settings.killSwitch(caller.tenant, body.agent);
    if (kill?.engaged)
      return refuse(conflict(`the kill switch of "${body.agent}" is engaged: ${kill.reason}`));
    // The catalog's rule for whoever starts the run (docs/models.md), a script's fallback included:
    // a planner taken away since the config named it leaves the agent configured, and its runs
    // refused with the why.
    const unavailable = await this.catalog.unavailableFor(caller, agent.planner);
    if (unavailable) {
      return refuse(plannerUnavailable(`agent "${body.agent}" cannot plan: ${unavailable.why}`), {
        reason: 'planner_unavailable',
        ...(unavailable.id ? { planner: unavailable.id } : {}),
      });
    }
    // What the planner is told to do is what a person reads on the run: nothing hidden in it.
    const hidden = hiddenCharacterProblem(body.goal, GOAL_BREAKS);
    if (hidden) return refuse(invalid(hiddenInGoal(hidden)), { reason: 'goal' });
    const declared = await this.planners.parametersOf(caller.tenant, agent.planner);
    const params = checkRunParams(declared, body.params);
    if (!params.ok) return refuse(invalid(params.error), { reason: 'params' });
    const secret = await this.secrets.refusal({
      tenant: caller.tenant,
      envName: agent.screen_token_env,
      destination: agent.screen_url,
      what: "the screen host's token",
    });
    if (secret) {
      return refuse(
        conflict(`agent "${body.agent}" cannot reach its screen host: ${secret.message}`),
        {
          reason: secret.reason,
        },
      );
    }
    const notUsable = await this.planners.reasonNotUsable(caller.tenant, agent.planner);
    if (notUsable) {
      return refuse(conflict(`agent "${body.agent}" cannot plan: ${notUsable.message}`), {
        ...(notUsable.reason ? { reason: notUsable.reason } : {}),
      });
    }
    if (!(await this.planners.plannerFor(caller.tenant, agent.planner))) {
      return refuse(conflict(`agent "${body.agent}" has no planner that Warden can use`));
    }
    // A remote planner with the tenant's most steps waiting already (docs/models.md): try again later.
    const busy = await this.planners.busyReason(caller.tenant, agent.planner);
    if (busy) {
      return refuse(
        new DomainError(
          'too_many',
          `agent "${body.agent}" cannot plan now: ${busy}`,
          'planner_busy',
        ),
        {
          reason: 'planner_busy',
        },
      );
    }
    return {
      version: current.version,
      agent,
      params: declared.length > 0 ? params.params : null,
    };
  }
}
