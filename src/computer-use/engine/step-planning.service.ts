import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { lastClickPoint, targetUnderRedaction, type Verdict } from '../actions';
import type {
  ObservedScreen,
  PlanResult,
  ProviderSafetyCheck,
  StepHistory,
} from '../planner-contract/planner';
import { plannedByModel } from '../planning/planner-kinds';
import { PlannersService } from '../planning/planners.service';
import { RunsRepository } from '../runs/runs.repository';
import type { Step } from '../runs/step.entity';
import { StepFields, StepsRepository } from '../runs/steps.repository';
import { decodeScreenshot } from '../ocr/ocr-label-reader';
import { railOf, type RailRecord } from '../rail/screen-rail';
import { type CommitPoint, commitPoint } from './commit-point';
import { RunEnds } from './run-ends';
import {
  batchStop,
  decisionFields,
  planFailure,
  plannerChanged,
  plannerUnavailableEnd,
  screenFields,
} from './planning-decisions';
import { PlannerCatalog } from '../catalog/planner-catalog.service';
import { keptState, stateFor } from './step-decisions';
import { WARDEN_ACTOR } from '../../audit/warden-actor';
import type { StepContext } from './step-context';
import { StepJudging } from './step-judging.service';
import { StepObserving } from './step-observing.service';
import { MAX_SCREEN_CHANGES } from './step-sending.service';

/** What the planner answered for a step, judged by Warden's rules (docs/rules.md). */
export interface Judged extends CommitPoint {
  /** The injection rail's record for a model's step; null for a scripted planner. */
  rail: RailRecord | null;
  verdict: Verdict;
  /** The screen the action was chosen on. */
  screen: ObservedScreen;
  /** The step's decision as it is recorded (screen, action, classification, why, model). */
  fields: StepFields;
  /** Checks a model provider raised on the action: a person decides, whatever the rules say. */
  safetyChecks: ProviderSafetyCheck[];
  /** The action is a script's fallback model's, not the script's. */
  offScript: boolean;
  /** What the action lands on lies under the agent's `redact_regions`: the approver cannot see it. */
  targetRedacted: boolean;
  /** An action of a batch that the screen no longer shows where it lands: why it is not sent. */
  batchStop: string | null;
}

/**
 * One step from its screen to its judged decision: observe (StepObserving), plan through the
 * governed model call, judge by Warden's rules (StepJudging), and the injection rail and commit
 * point on top. An invalid answer is refused here.
 */
@Injectable()
export class StepPlanning {
  private readonly logger = new Logger(StepPlanning.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly steps: StepsRepository,
    private readonly runs: RunsRepository,
    private readonly planners: PlannersService,
    private readonly observing: StepObserving,
    private readonly judging: StepJudging,
    private readonly audit: AuditService,
    private readonly catalog: PlannerCatalog,
  ) {}

  /**
   * Takes the screen, asks the planner, and judges its answer. The step records its screen (and
   * moves to `planning`) before the planner is asked; its decision is recorded by whoever acts on
   * the verdict. `waits`: a remote planner's decision is still to come.
   */
  async planAndJudge(ctx: StepContext, step: Step): Promise<Judged | 'waits'> {
    const { run, agent } = ctx;
    // Another planner put in force since the run started: may its starter use it? (docs/planners.md)
    if (plannerChanged(run.agentConfig.planner, agent.planner)) {
      const who = { tenant: run.tenant, subject: run.createdBy };
      const unavailable = await this.catalog.unavailableFor(who, agent.planner);
      if (unavailable) throw plannerUnavailableEnd(run.agent, unavailable.why);
    }
    // The planner and the run's history do not depend on the screen: read while it is taken.
    const looked = Promise.allSettled([
      this.planners.plannerFor(run.tenant, agent.planner),
      this.steps.history(run.id, step.n),
    ]);
    let screen: ObservedScreen;
    try {
      screen = await this.observing.observe(ctx, step.n === 1 ? 'data' : 'structure');
    } finally {
      await looked; // settled either way, so nothing is left to fail unobserved
    }
    await this.steps.move(step, 'observing', 'planning', screenFields(screen), { durable: false });
    step.phase = 'planning'; // or it was already: a retry plans again from the same state

    const [plannerFound, historyFound] = await looked;
    if (plannerFound.status === 'rejected') throw plannerFound.reason;
    if (historyFound.status === 'rejected') throw historyFound.reason;
    const history = historyFound.value;
    // The last action met a changed screen: learn what on it moves by itself before judging again.
    if (history.at(-1)?.outcome === 'screen_changed') await this.observing.learnVolatile(ctx);
    // The injection rail reads the whole screen where the host serves no outline (the model reads
    // the screenshot itself): started now, it reads while the model thinks.
    const byModel = plannedByModel(agent.planner);
    let screenText = byModel ? this.judging.readScreenText(screen) : undefined;
    const planner = plannerFound.value;
    const result = await this.plan(ctx, step, planner, screen, history);
    // A remote planner's worker decides: the step is taken again when its answer comes.
    if (result.waits) return 'waits';
    // A script's fallback is a model: its step passes the injection rail like any model's.
    const railed = byModel || result.plannedBy === 'fallback';
    // The planner looked again and decided on a newer screen: that one is the step's screen.
    if (result.screen && result.screen.sha256 !== screen.sha256) {
      screen = result.screen;
      if (railed) screenText = this.judging.readScreenText(screen);
    } else if (railed && !byModel) {
      screenText = this.judging.readScreenText(screen);
    }
    // Kept on the run together with this step's decision, never before it.
    ctx.plannerState = keptState(ctx.agent.planner, result.state);
    const { verdict, context, clickLabel } = await this.judging.judge(
      ctx,
      result.action,
      screen,
      history,
    );
    // The injection rail, for a model's step: what Warden read on this screen (issue 16 §2).
    const rail = railed
      ? railOf(context, {
          also: [clickLabel],
          pixels: { image: () => decodeScreenshot(screen.png), redacted: agent.redact_regions },
          screenText: await screenText,
        })
      : null;
    const point = commitPoint(
      ctx.agent.approve_at,
      ctx.rules,
      verdict,
      context,
      screen.outline,
      history,
    );
    return {
      verdict,
      screen,
      rail,
      ...point,
      fields: {
        ...decisionFields(
          screen,
          verdict,
          { ...result, scriptSha256: planner?.scriptSha256 },
          rail,
        ),
        edit: point.edit ?? null,
      },
      safetyChecks: result.safetyChecks ?? [],
      offScript: result.plannedBy === 'fallback',
      targetRedacted:
        verdict.action !== null &&
        targetUnderRedaction(verdict.action, context, lastClickPoint(history)),
      batchStop: batchStop(result, verdict, screen),
    };
  }

  /**
   * Records a refused answer (and why) on a step that is done, counts it on the run and audits it:
   * the run's count of invalid actions now.
   */
  async refuse(ctx: StepContext, step: Step, fields: StepFields): Promise<number> {
    const { run } = ctx;
    return this.dataSource.transaction(async (manager) => {
      await this.steps.decide(
        step,
        'planning',
        'done',
        { ...fields, outcome: 'refused', endedAt: new Date() },
        ctx.plannerState,
        manager,
      );
      const invalid = await this.runs.countInvalidAction(manager, run.id);
      await this.audit.record(
        {
          tenant: run.tenant,
          type: 'computer_use.action.refused',
          actor: WARDEN_ACTOR,
          runId: run.id,
          step: step.n,
          details: {
            agent: run.agent,
            action: fields.action ?? null,
            why: fields.why,
            ...(fields.batch ? { batch: fields.batch } : {}),
          },
        },
        manager,
      );
      return invalid;
    });
  }

  /**
   * An action of a batch that the screen no longer shows where it lands: not sent, its step ends
   * `screen_changed` with why, and the model is asked on the screen as it is (the batch's later
   * actions are not executed). Counted with the frame rule's refusals: three in a row stop the run.
   */
  async stopBatch(ctx: StepContext, step: Step, fields: StepFields, why: string): Promise<void> {
    await this.steps.decide(
      step,
      'planning',
      'done',
      { ...fields, outcome: 'screen_changed', error: why, endedAt: new Date() },
      ctx.plannerState,
    );
    const inARow = await this.steps.screenChangesInARow(ctx.run.id, step.n);
    if (inARow >= MAX_SCREEN_CHANGES) {
      throw new RunEnds(
        'stale_screen',
        `the screen changed ${inARow} times in a row before an action could be sent; the last: ${why}`,
      );
    }
  }

  private async plan(
    ctx: StepContext,
    step: Step,
    planner: Awaited<ReturnType<PlannersService['plannerFor']>>,
    screen: ObservedScreen,
    history: StepHistory[],
  ): Promise<PlanResult> {
    const { run, agent } = ctx;
    if (!planner) throw new RunEnds('model_error', `the agent's planner is not available`);
    const planStarted = performance.now();
    const hostBefore = ctx.timing.hostMs;
    try {
      return await planner.plan({
        tenant: run.tenant,
        runId: run.id,
        agent: run.agent,
        goal: run.goal,
        system: agent.system,
        screenTokenEnv: agent.screen_token_env,
        step: step.n,
        maxSteps: run.maxSteps,
        screen,
        history,
        state: stateFor(run.plannerState, agent.planner),
        params: run.params ?? null,
        look: () => this.observing.observe(ctx),
        signal: ctx.signal,
      });
    } catch (error) {
      const failed = planFailure(error);
      if (failed.unexpected) {
        this.logger.warn({ err: error, run: run.id, step: step.n }, 'the planner failed');
      }
      throw failed.end;
    } finally {
      // The planner's own time; screenshots it asked for (look) count as the host's.
      ctx.timing.plannerMs += performance.now() - planStarted - (ctx.timing.hostMs - hostBefore);
    }
  }
}
