import { Injectable } from '@nestjs/common';
import { StepQueue } from '../../queue/step-queue';
import { RunLifecycle } from '../runs/run-lifecycle.service';
import { RunForJob, RunNow, RunsRepository } from '../runs/runs.repository';
import type { Step } from '../runs/step.entity';
import { StepFields, StepsRepository } from '../runs/steps.repository';
import { type Governance, governanceOf } from '../settings/settings.service';
import { railWhy } from '../rail/screen-rail';
import { RunEnds } from './run-ends';
import { WARDEN_ACTOR } from '../../audit/warden-actor';
import type { StepContext } from './step-context';
import {
  decideWrite,
  looseningOf,
  SCREEN_ACTIONS,
  stepJob,
  stopBeforeStep,
  type Switches,
} from './step-decisions';
import { StepHolding } from './step-holding.service';
import { StepLease } from './step-lease.service';
import { StepPlanning } from './step-planning.service';
import { runMask, type SendResult, StepSending } from './step-sending.service';
import { StepSettling } from './step-settling.service';
import { pause, startTiming, type StepTiming } from './step-timing';

/**
 * One step of a run, as docs/step-flow.md lists it: (1) the kill switch and the caps; (2) the screenshot;
 * (3) the plan; (4) validation and classification; (5) a read is sent, a write held; `done` and
 * `fail` end the run; then the screen settles and the next step is queued. Every phase is written
 * to the step row before its effect, and every step is leased to one worker (StepLease), so a
 * worker killed at any point loses nothing and a second worker never repeats what the first did.
 * Each stage is a service of its own: planning, holding, sending, settling.
 */
@Injectable()
export class StepEngine {
  constructor(
    private readonly runs: RunsRepository,
    private readonly steps: StepsRepository,
    private readonly queue: StepQueue,
    private readonly lifecycle: RunLifecycle,
    private readonly lease: StepLease,
    private readonly planning: StepPlanning,
    private readonly holding: StepHolding,
    private readonly sending: StepSending,
    private readonly settling: StepSettling,
  ) {}

  // ---------------------------------------------------------------- entry points (jobs)

  /** Runs step `n` of a run, or carries on with it where a previous worker left it. */
  async runStep(runId: string, n: number): Promise<void> {
    const timing = startTiming('step');
    const found = await this.runs.findForJob(runId);
    if (!found) return;
    const { run } = found;
    const governance = governanceOf(run.agent, found.governance);
    if (run.status !== 'running') return this.recordAfterEnd(run, n, timing, governance);
    const job = stepJob(run, n);
    if (job === 'none') return;
    let opened: Step | null = null;
    if (job === 'open') {
      // (1) The admin's switches and the caps, before the step exists.
      const stop = stopBeforeStep(run, switchesOf(governance), Date.now());
      if (stop) {
        await this.lifecycle.end(run.id, stop.reason, stop.summary, WARDEN_ACTOR, {
          step: run.stepCount || null,
        });
        return;
      }
      opened = await this.lease.open(run, n);
      if (!opened) return;
    }
    await this.lease.withStep(run, n, timing, opened, governance.agent, async (ctx, step) => {
      switch (step.phase) {
        case 'observing':
        case 'planning':
          return this.takeStep(ctx, step);
        case 'approved':
          return this.goOn(ctx, step, await this.sending.sendApproved(ctx, step));
        case 'sending':
          return this.goOn(ctx, step, await this.sending.recoverSending(ctx, step));
        case 'done':
          return this.next(ctx, step);
        case 'held':
          return; // a person decides
      }
    });
  }

  /** Carries out step `n`'s approved write (queued by a resume). */
  async runApproved(runId: string, n: number): Promise<void> {
    const timing = startTiming('approved');
    const found = await this.runs.findForJob(runId);
    if (!found) return;
    const { run } = found;
    const governance = governanceOf(run.agent, found.governance);
    if (run.status !== 'running') return this.recordAfterEnd(run, n, timing, governance);
    const { agent } = governance;
    await this.lease.withStep(run, n, timing, null, agent, async (ctx, step) => {
      if (step.phase === 'approved') {
        return this.goOn(ctx, step, await this.sending.sendApproved(ctx, step));
      }
      if (step.phase === 'sending') {
        return this.goOn(ctx, step, await this.sending.recoverSending(ctx, step));
      }
    });
  }

  /**
   * A run that ended (a cancel) while its step was sending, whose job then failed or whose worker
   * died: what became of the action is still found out from the host and recorded (a write whose
   * outcome nobody can tell is audited as such); nothing is sent again, and nothing follows.
   */
  private async recordAfterEnd(
    run: RunForJob,
    n: number,
    timing: StepTiming,
    { agent }: Governance,
  ): Promise<void> {
    if (run.currentPhase !== 'sending' || run.stepCount !== n) return;
    await this.lease.withStep(run, n, timing, null, agent, async (ctx, step) => {
      if (step.phase === 'sending') await this.sending.recoverSending(ctx, step);
    });
  }

  // ---------------------------------------------------------------- one step

  /** (2) to (5): observe, plan, judge; then refuse, end, wait, hold or send. */
  private async takeStep(ctx: StepContext, step: Step): Promise<void> {
    const judged = await this.planning.planAndJudge(ctx, step);
    // A remote planner's worker decides; its answer (or its deadline) queues this step again.
    if (judged === 'waits') return;
    const { verdict, fields } = judged;
    const action = verdict.action;
    if (verdict.classification === 'invalid' || !action) return this.refuse(ctx, step, fields);
    // An action of a batch whose target the screen no longer shows: the batch stops, unsent.
    if (judged.batchStop) {
      await this.planning.stopBatch(ctx, step, fields, judged.batchStop);
      return this.next(ctx, step);
    }
    if (action.action === 'done') {
      throw new RunEnds('done', action.summary, { outcome: 'ended', fields });
    }
    if (action.action === 'fail') {
      throw new RunEnds('fail', action.reason, { outcome: 'ended', fields });
    }
    if (action.action === 'wait') return this.wait(ctx, step, action.seconds, fields);
    const rail = judged.rail;
    if (rail?.verdict === 'injected' && ctx.agent.on_injection === 'stop') {
      // The agent stops on instructions to the model; nothing is sent, the step says why.
      const why = railWhy(rail, 'and the agent stops on those (on_injection: "stop")');
      throw new RunEnds('injection', why, {
        outcome: 'refused',
        fields: { ...fields, error: why },
      });
    }
    const decided = decideWrite(verdict, judged.safetyChecks, ctx.agent.require_write_approval, {
      ...judged,
      railWhy: rail ? railWhy(rail) : undefined,
    });
    const hold = (why: string) =>
      this.holding.hold(ctx, step, {
        action,
        why,
        screen: judged.screen,
        fields: { ...fields, classification: 'write', why },
        safetyChecks: judged.safetyChecks,
        changes: judged.changes ?? judged.stores ?? null,
        rail,
        targetRedacted: judged.targetRedacted,
      });
    if (decided.go === 'hold') return hold(decided.why);
    // The step's fields carry the rail's record already (step-planning); a staged edit its own why.
    const staged = decided.go === 'stage' ? { why: decided.why, staged: judged.staged } : null;
    const loosenedBy = looseningOf(verdict.loosenedBy, ctx.agent);
    const sent = await this.sending.send(ctx, step, action, {
      from: 'planning',
      fields: { ...fields, ...(staged ?? {}), ...(loosenedBy ? { loosenedBy } : {}) },
      judged: judged.screen,
      mask: runMask(ctx),
      staged: staged !== null,
    });
    // Checked again with the send: a person decides after all (the config in force changed).
    if (sent && 'hold' in sent) return hold(`${verdict.why}; ${sent.hold}`);
    return this.goOn(ctx, step, sent);
  }

  /** An invalid answer is refused and the planner is told why; the third ends the run. */
  private async refuse(ctx: StepContext, step: Step, fields: StepFields): Promise<void> {
    const invalid = await this.planning.refuse(ctx, step, fields);
    if (invalid >= 3) {
      throw new RunEnds(
        'invalid_actions',
        `${invalid} invalid actions; the last: ${fields.why ?? ''}`,
      );
    }
    return this.next(ctx, step);
  }

  /** `wait`: nothing reaches the host; the step pauses, then counts as sent. */
  private async wait(
    ctx: StepContext,
    step: Step,
    seconds: number,
    fields: StepFields,
  ): Promise<void> {
    await this.steps.decide(step, 'planning', 'planning', fields, ctx.plannerState);
    await pause(ctx, Math.min(seconds, 10) * 1000);
    await this.steps.move(step, 'planning', 'done', { outcome: 'sent', endedAt: new Date() });
    return this.next(ctx, step);
  }

  /**
   * After a send: the screen settles (a screen action reached it), then the next step; a screen
   * that changed before the host acted is planned on again by the next step at once.
   */
  private async goOn(ctx: StepContext, step: Step, result: SendResult): Promise<void> {
    if (!result || 'hold' in result) return; // an approved write never comes back held
    if ('changed' in result) return this.next(ctx, step);
    const { sent } = result;
    const now = SCREEN_ACTIONS.has(sent.action) ? await this.settling.settle(ctx, step) : undefined;
    return this.next(ctx, step, now);
  }

  /**
   * The run's next step, if the run is still running at this step: queued once this job has given
   * back the step's lease (StepContext.queueNext). `now` is the run as a statement of this job
   * just returned it (null: not running), which saves reading it again.
   */
  private async next(ctx: StepContext, step: Step, now?: RunNow | null): Promise<void> {
    const run = now === undefined ? await this.runs.now(ctx.run.id) : now;
    if (run?.status === 'running' && run.step_count === step.n) {
      ctx.queueNext = () => this.queue.step(ctx.run.id, step.n + 1);
    }
  }
}

function switchesOf(governance: Governance): Switches {
  return {
    enabled: governance.enabled,
    agentConfigured: governance.agent !== null,
    killSwitch: governance.killSwitch,
    pause: governance.pause,
  };
}
