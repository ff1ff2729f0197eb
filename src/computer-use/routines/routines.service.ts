import { Injectable } from '@nestjs/common';
import type { Caller } from '../../auth/caller';
import { conflict, invalid, notFound } from '../../common/domain-error';
import { loadRules, type Rules } from '../actions';
import { PlannerCatalog } from '../catalog/planner-catalog.service';
import { checkScript } from '../planning/check-script';
import { PlannersService, type ScriptedPlannerView } from '../planning/planners.service';
import { PARAM_LIMITS, PARAM_NAME, type Params, valueProblem } from '../planning/script-params';
import { RunsRepository } from '../runs/runs.repository';
import { StepsRepository } from '../runs/steps.repository';
import { scriptFromRun } from './script-from-run';

/**
 * Routine runs: a completed run saved as a scripted planner (script-from-run.ts), which records the
 * run it came from and is from then on an ordinary scripted planner (listed, replaced, deleted).
 */
@Injectable()
export class RoutinesService {
  private rules: Rules | null = null;

  constructor(
    private readonly runs: RunsRepository,
    private readonly steps: StepsRepository,
    private readonly planners: PlannersService,
    private readonly catalog: PlannerCatalog,
  ) {}

  async saveRun(
    caller: Caller,
    runId: string,
    body: { name: string; parameters?: Record<string, unknown>; fallback?: unknown },
  ): Promise<ScriptedPlannerView> {
    const run = /^[0-9a-f-]{36}$/i.test(runId)
      ? await this.runs.findInTenant(caller.tenant, runId)
      : null;
    if (!run) throw notFound(`no run ${runId}`);
    if (run.status !== 'completed') {
      throw conflict(
        `run ${runId} is ${run.status}${run.endReason ? ` (${run.endReason})` : ''}: only a completed run is saved as a script`,
      );
    }
    const params = checkedParameters(body.parameters);
    const steps = await this.steps.ofRun(run.id);
    this.rules ??= loadRules();
    const built = scriptFromRun(
      steps.map((s) => ({
        n: s.n,
        action: s.action as Record<string, unknown> | null,
        outcome: s.outcome,
        labelEvidence: s.labelEvidence,
        screenTitle: s.screenTitle,
      })),
      params,
      this.rules,
    );
    if (!built.ok) throw invalid(built.error);
    // The script is checked as any other, so that one the engine would refuse is not saved.
    const fallback = body.fallback === undefined ? {} : { fallback: body.fallback };
    const checked = checkScript({ ...built.script, ...fallback });
    if (!checked.ok) throw invalid(`the run's steps do not make a valid script: ${checked.error}`);
    await this.catalog.checkFallback(caller, checked.script.fallback);
    return this.planners.create(caller, body.name, checked.script, { sourceRunId: run.id });
  }
}

function checkedParameters(raw: Record<string, unknown> | undefined): Params {
  const params: Params = {};
  const entries = Object.entries(raw ?? {});
  if (entries.length > PARAM_LIMITS.count) {
    throw invalid(`parameters: ${entries.length} names; at most ${PARAM_LIMITS.count}`);
  }
  for (const [name, value] of entries) {
    if (!PARAM_NAME.test(name)) {
      throw invalid(
        `parameter ${JSON.stringify(name.slice(0, 40))}: a name of a-z, 0-9 and _, starting with a letter, at most 40 characters`,
      );
    }
    const problem = valueProblem(name, value);
    if (problem) throw invalid(problem);
    params[name] = value as string;
  }
  return params;
}
