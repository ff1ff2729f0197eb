import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Approval } from '../approvals/approval.entity';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { AppConfig } from '../../config/app-config';
import { loadRules, type Rules } from '../actions';
import type { Run } from '../runs/run.entity';
import type { Step } from '../runs/step.entity';
import { StepsRepository } from '../runs/steps.repository';
import { ScreenHostClient } from '../host-client/screen-host.client';
import type { AgentConfig } from '../settings/agent-config';
import { SecretGrants } from '../../secrets/secret-grants.service';
import { afterFailures, jobEnding, renewEvery, ruleSettings } from './lease-decisions';
import {
  failedTooOften,
  type RunEnds,
  secretRefused,
  secretRefusedWhileSending,
  unusableScreen,
} from './run-ends';
import { RunEnding } from './run-ending.service';
import type { StepContext } from './step-context';
import { redactingHost } from '../host-client/redaction';
import { timedHost, timingEntry, type StepTiming } from './step-timing';
import { WorkSlots } from './work-slots';

/**
 * One worker's hold on a step while a job works on it: the step is leased to this worker (opened
 * and leased in one statement, or leased when no live worker holds it), the lease is renewed while
 * the work lasts and given back with the job's timings after it. A run that the work ends is ended
 * here, in one place. A worker killed at any point loses nothing: its lease lapses and the next
 * worker carries on from the step's phase.
 */
@Injectable()
export class StepLease implements OnModuleDestroy {
  private readonly logger = new Logger(StepLease.name);
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly abort = new AbortController();
  /** Steps this process is working on now (`<run>.<n>`). */
  private readonly inFlight = new Set<string>();
  /** Work of jobs that have ended (StepContext.afterRelease), still going on or waiting. */
  private readonly afterJobs = new Set<Promise<void>>();
  /**
   * That work, at most as much at once as the worker's jobs (WORKER_CONCURRENCY): a burst of holds
   * samples no more screens at once than the jobs did when they sampled inside the job.
   */
  private readonly afterSlots: WorkSlots;
  /** Compiled rules per agent setting: loadRules is pure, and compiling the words costs a few ms. */
  private readonly rulesCache = new Map<string, Rules>();

  constructor(
    private readonly config: AppConfig,
    private readonly steps: StepsRepository,
    private readonly client: ScreenHostClient,
    private readonly ending: RunEnding,
    private readonly secrets: SecretGrants,
    private readonly approvals: ApprovalsRepository,
  ) {
    this.afterSlots = new WorkSlots(config.WORKER_CONCURRENCY);
  }

  /** Ends the pauses of the work in flight (a held write's samples give up) and waits for it. */
  async onModuleDestroy(): Promise<void> {
    this.abort.abort();
    this.afterSlots.open();
    await Promise.allSettled([...this.afterJobs]);
  }

  /** Opens step `n` of the run leased to this worker; null when it cannot be opened now. */
  open(run: Run, n: number): Promise<Step | null> {
    return this.steps.open(run, n, this.workerId, this.config.STEP_LEASE_MS);
  }

  /**
   * Runs `work` on step `n` (the step just `opened`, or leased here), unless a live worker holds
   * it or this process already works on it. `agent` is the agent's config in force now (null when
   * the config no longer names it: the run's own copy is used, and the send gate refuses). A
   * RunEnds thrown by the work ends the run.
   */
  async withStep(
    run: Run,
    n: number,
    timing: StepTiming,
    opened: Step | null,
    agent: AgentConfig | null,
    work: (ctx: StepContext, step: Step) => Promise<void>,
  ): Promise<void> {
    const leaseMs = this.config.STEP_LEASE_MS;
    const step = opened ?? (await this.steps.lease(run.id, n, this.workerId, leaseMs));
    if (!step) return;
    // Within one process a step is worked on once, even when its lease ran out during a long
    // pause of the event loop and the reconciler queued it again.
    const key = `${run.id}.${n}`;
    if (this.inFlight.has(key)) return; // the lease we just took is the running job's: it keeps it
    this.inFlight.add(key);
    const renew = setInterval(() => {
      this.steps
        .renewLease(step.id, this.workerId, leaseMs)
        .catch((error: unknown) =>
          this.logger.warn({ err: error }, 'could not renew a step lease'),
        );
    }, renewEvery(leaseMs));
    let ctx: StepContext | null = null;
    let worked = false;
    try {
      ctx = await this.context(run, agent ?? run.agentConfig, timing);
      await work(ctx, step);
      worked = true;
    } catch (error) {
      await this.ending.end(run, step, await this.endsFor(step, error));
    } finally {
      this.inFlight.delete(key);
      clearInterval(renew);
      await this.steps
        .release(step.id, this.workerId, timingEntry(timing))
        .catch((error: unknown) =>
          this.logger.warn({ err: error }, 'could not record step timings and release the lease'),
        );
      this.afterRelease(ctx);
    }
    // The next step once this one's lease is given back: it cannot open before (StepsRepository
    // `open`). Not queued (Redis away): the reconciler queues it within RECONCILE_INTERVAL_MS.
    if (worked && ctx?.queueNext) {
      await ctx
        .queueNext()
        .catch((error: unknown) =>
          this.logger.warn({ err: error, run: run.id }, 'could not queue the next step'),
        );
    }
  }

  /**
   * Starts the job's work after its lease was given back (StepContext.afterRelease) and lets the
   * job end: that work holds none of the worker's job slots, so a held write's seconds of samples
   * do not keep the jobs of other steps (a resume's among them) waiting for a slot. It has slots of
   * its own (afterSlots); a mask that waits too long for one is given up by the approved write,
   * which then compares the screen whole.
   */
  private afterRelease(ctx: StepContext | null): void {
    const work = ctx?.afterRelease ?? [];
    if (work.length === 0) return;
    const done = (async () => {
      await this.afterSlots.take();
      try {
        for (const after of work) {
          await after().catch((error: unknown) =>
            this.logger.warn({ err: error, run: ctx?.run.id }, 'work after a step job failed'),
          );
        }
      } finally {
        this.afterSlots.give();
      }
    })();
    this.afterJobs.add(done);
    void done.finally(() => this.afterJobs.delete(done));
  }

  /**
   * How a job's error ends the run: as it says (RunEnds), as a refused secret (for a step that was
   * sending: its outcome unknown, as the host may not be asked), as a screen host error for a
   * screenshot that cannot be used, or, after MAX_STEP_FAILURES unexpected errors on the step, as
   * failedTooOften. Before that an unexpected error is thrown again, for the job to be retried.
   */
  private async endsFor(step: Step, error: unknown): Promise<RunEnds> {
    const ending = jobEnding(error, step.phase);
    if (ending.as === 'thrown') return ending.end;
    if (ending.as === 'secret') {
      if (!ending.sending) return secretRefused(ending.refused);
      return secretRefusedWhileSending(step, await this.spentApproval(step), ending.refused);
    }
    if (ending.as === 'unusable_screen') return unusableScreen(ending.error);
    const failures = await this.steps.countFailure(step.id);
    this.logger.warn({ err: error, step: step.id, failures }, 'a step job failed');
    if (afterFailures(failures) === 'retry') throw error;
    return failedTooOften(step, failures, error, await this.spentApproval(step));
  }

  /** The approval spent on a step that was sending (its write's authority); null: none was. */
  private spentApproval(step: Step): Promise<Approval | null> {
    return step.phase === 'sending'
      ? this.approvals.ofStep(step.id, 'spent')
      : Promise.resolve(null);
  }

  /**
   * The job's context: the agent's host with its token released for the host's origin now (a
   * revoked grant ends the run `not_granted` here, before anything is sent to the host).
   */
  private async context(run: Run, agent: AgentConfig, timing: StepTiming): Promise<StepContext> {
    const token = await this.secrets.release({
      tenant: run.tenant,
      envName: agent.screen_token_env,
      destination: agent.screen_url,
      what: "the screen host's token",
    });
    return {
      run,
      agent,
      // Redaction is Warden's own work: outside the host's timing.
      host: redactingHost(
        timedHost(this.client.forTarget(agent, token), timing),
        agent.redact_regions,
      ),
      secret: { envName: token.envName, origin: token.origin },
      rules: this.rulesFor(agent, run),
      timing,
      signal: this.abort.signal,
    };
  }

  private rulesFor(agent: AgentConfig, run: Run): Rules {
    const settings = ruleSettings(agent);
    const key = JSON.stringify(settings);
    let rules = this.rulesCache.get(key);
    if (!rules) {
      // Rules saved before a check they would now fail (a pattern RE2 cannot run) still load,
      // failing closed (their writes apply, their reads do not); named once per worker and config.
      rules = loadRules(settings, 'stored');
      if (rules.screenRules.unusable.length > 0) {
        this.logger.warn(
          { tenant: run.tenant, run: run.id, problems: rules.screenRules.unusable },
          'screen rule patterns that cannot be run fail closed',
        );
      }
      if (this.rulesCache.size >= 256) this.rulesCache.clear();
      this.rulesCache.set(key, rules);
    }
    return rules;
  }
}
