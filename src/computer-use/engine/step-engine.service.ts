import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, EntityManager } from 'typeorm';
import { Approval } from '../../approvals/approval.entity';
import { AuditService } from '../../audit/audit.service';
import { AppConfig } from '../../config/app-config';
import { updatedRows } from '../../database/sql';
import {
  type Action,
  checkAction,
  labelAt,
  loadRules,
  maskCardNumbers,
  needsOcr,
  type Rules,
} from '../actions';
import { BudgetExhaustedError } from '../../models/model-errors';
import { PlannersService } from '../planning/planners.service';
import type { ObservedScreen, ProviderSafetyCheck, StepHistory } from '../planning/planner';
import { Run } from '../runs/run.entity';
import { RunLifecycle } from '../runs/run-lifecycle.service';
import type { EndReason } from '../runs/run-status';
import { Step, StepOutcome, StepPhase } from '../runs/step.entity';
import { OcrLabelReader } from '../screens/ocr-label-reader';
import { compareScreens, decodePng, learnVolatileMask, VolatileMask } from '../screens/pixels';
import {
  ScreenHost,
  ScreenHostClient,
  ScreenHostError,
  Screenshot,
} from '../screens/screen-host.client';
import { ScreensService } from '../screens/screens.service';
import type { AgentConfig } from '../settings/agent-config';
import { SettingsService } from '../settings/settings.service';
import { StepQueue } from './step-queue';

const ACTOR = 'warden';
/** Screen actions: what reaches the host's POST /action. */
const SCREEN_ACTIONS = new Set(['click', 'double_click', 'type', 'key', 'scroll']);

/** At most this share of the screen may be masked as moving by itself (a caret, a clock). */
const MAX_VOLATILE_FRACTION = 0.01;

/**
 * A condition that is always true and makes the statement's own transaction commit without waiting
 * for its WAL to reach the disk (`synchronous_commit` off, for this transaction only). Only for
 * single statements whose loss in a PostgreSQL crash is harmless: bookkeeping before a durable
 * write (which flushes all WAL before it, so they are durable by the time anything depends on
 * them), or after the step's effect was recorded durably (timings, the lease). Saves a disk flush
 * each; the writes that guard an effect (`sending`, `held`, the audit trail) stay durable.
 */
const ASYNC_COMMIT = `set_config('synchronous_commit', 'off', true) IS NOT NULL`;

/** A run's status and step count, as an UPDATE … RETURNING of this job gave them. */
interface RunNow {
  status: string;
  step_count: number;
}

/** Columns of a step that the engine writes as it goes. */
type StepFields = Partial<Omit<Step, 'run' | 'id' | 'runId' | 'tenant' | 'n'>>;

/**
 * Thrown where a step ends its run. The step's last state, an audit event of its own and the
 * run's end are then written in one transaction, so nobody ever sees one without the others.
 */
class RunEnds extends Error {
  constructor(
    readonly reason: EndReason,
    readonly summary: string,
    readonly step: { outcome: StepOutcome | null; fields?: StepFields } = { outcome: null },
    readonly event?: { type: string; details: Record<string, unknown> },
  ) {
    super(summary);
  }
}

interface StepContext {
  run: Run;
  agent: AgentConfig;
  host: ScreenHost;
  rules: Rules;
  timing: StepTiming;
  /** The planner's state after this step's answer (JSON), kept when the step's decision is. */
  plannerState?: string;
}

/**
 * Where one job's time went: waiting on the screen host, on the planner, in deliberate pauses
 * (`wait`, settling, mask samples); the rest is Warden's own overhead. Kept on the step row.
 */
interface StepTiming {
  job: 'step' | 'approved';
  started: number;
  hostMs: number;
  plannerMs: number;
  pauseMs: number;
}

/** A job's timing, from the moment the job starts (its run is read, the step opened or leased). */
function startTiming(job: StepTiming['job']): StepTiming {
  return { job, started: performance.now(), hostMs: 0, plannerMs: 0, pauseMs: 0 };
}

/** The screen host, with the time spent in each call added to the step's timing. */
function timedHost(host: ScreenHost, timing: StepTiming): ScreenHost {
  const timed =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const started = performance.now();
      try {
        return await call(...args);
      } finally {
        timing.hostMs += performance.now() - started;
      }
    };
  return {
    url: host.url,
    screenshot: timed((o?: { attempts?: number }) => host.screenshot(o)),
    elements: timed(() => host.elements()),
    act: timed((a: Action, key: string) => host.act(a, key)),
    lookupAction: timed((key: string) => host.lookupAction(key)),
    health: timed(() => host.health()),
    probe: timed(() => host.probe()),
  };
}

/**
 * One step of a run, as DESIGN §4 lists it: kill switch and caps; screenshot; plan; validate and
 * classify; send a read, hold a write. Every phase is written to the step row before its effect,
 * and every step is leased to one worker, so a worker killed at any point loses nothing and a
 * second worker never repeats what the first did.
 */
@Injectable()
export class StepEngine implements OnModuleDestroy {
  private readonly logger = new Logger(StepEngine.name);
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly abort = new AbortController();
  /** Compiled rules per agent setting: loadRules is pure, and compiling the words costs a few ms. */
  private readonly rulesCache = new Map<string, Rules>();
  /** Steps this process is working on now (`<run>.<n>`). */
  private readonly inFlight = new Set<string>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly lifecycle: RunLifecycle,
    private readonly queue: StepQueue,
    private readonly audit: AuditService,
    private readonly settings: SettingsService,
    private readonly planners: PlannersService,
    private readonly screens: ScreensService,
    private readonly client: ScreenHostClient,
    private readonly ocr: OcrLabelReader,
  ) {}

  onModuleDestroy(): void {
    this.abort.abort();
  }

  // ---------------------------------------------------------------- entry points (jobs)

  /** Runs step `n` of a run, or carries on with it where a previous worker left it. */
  async runStep(runId: string, n: number): Promise<void> {
    const timing = startTiming('step');
    const run = await this.findRun(runId);
    if (!run || run.status !== 'running') return;
    let opened: Step | null = null;
    if (n === run.stepCount + 1) {
      // Step n-1 may still be held, approved or sending: its own job goes on to this one.
      if (run.currentPhase !== null && run.currentPhase !== 'done') return;
      const stop = await this.stopBeforeStep(run);
      if (stop) {
        await this.lifecycle.end(run.id, stop.reason, stop.summary, ACTOR, {
          step: run.stepCount || null,
        });
        return;
      }
      opened = await this.openStep(run, n);
      if (!opened) return;
    } else if (n !== run.stepCount) {
      return; // a job for a step long past: nothing to do
    }
    await this.withStep(run, n, timing, opened, async (ctx, step) => {
      switch (step.phase) {
        case 'observing':
        case 'planning':
          return this.observeAndPlan(ctx, step);
        case 'approved':
          return this.sendApproved(ctx, step);
        case 'sending':
          return this.recoverSending(ctx, step);
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
    const run = await this.findRun(runId);
    if (!run || run.status !== 'running') return;
    await this.withStep(run, n, timing, null, async (ctx, step) => {
      if (step.phase === 'approved') return this.sendApproved(ctx, step);
      if (step.phase === 'sending') return this.recoverSending(ctx, step);
    });
  }

  /** An approval's time is up: the run stops `approval_expired`, nothing is sent. */
  async expire(approvalId: string): Promise<void> {
    const approval = await this.dataSource.getRepository(Approval).findOneBy({ id: approvalId });
    if (!approval || !['pending', 'approved'].includes(approval.status)) return;
    if (approval.expiresAt.getTime() > Date.now()) {
      await this.queue.expire(approval.id, approval.expiresAt);
      return;
    }
    await this.dataSource.getRepository(Step).update(
      { id: approval.stepId, phase: 'held' },
      {
        phase: 'done',
        error: 'the approval expired before anyone resumed the run',
        endedAt: new Date(),
      },
    );
    await this.lifecycle.end(
      approval.runId,
      'approval_expired',
      `the held write of step ${approval.step} was not approved and resumed in time`,
      ACTOR,
      { step: approval.step },
    );
  }

  // ---------------------------------------------------------------- opening and leasing a step

  private async stopBeforeStep(run: Run): Promise<{ reason: EndReason; summary: string } | null> {
    const kill = await this.settings.killSwitch(run.tenant, run.agent);
    if (kill?.engaged) return { reason: 'killed', summary: `kill switch engaged: ${kill.reason}` };
    if (run.stepCount >= run.maxSteps) {
      return { reason: 'step_cap', summary: `the run reached its step cap of ${run.maxSteps}` };
    }
    const active =
      run.activeSeconds + (run.activeSince ? (Date.now() - run.activeSince.getTime()) / 1000 : 0);
    if (active >= run.maxSeconds) {
      return { reason: 'time_cap', summary: `the run used its ${run.maxSeconds} s of active time` };
    }
    return null;
  }

  /**
   * Creates step `n`, counts it on the run and leases it to this worker, in one statement: once,
   * whoever else tries at the same time.
   */
  private async openStep(run: Run, n: number): Promise<Step | null> {
    const startedAt = new Date();
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `WITH counted AS (
         UPDATE runs SET step_count = $2, updated_at = now()
          WHERE id = $1 AND step_count = $2 - 1 AND status = 'running'
            -- never while an earlier step is unfinished (held, approved, sending): a step that is
            -- done stays done, so what this statement sees cannot be undone before it commits
            AND NOT EXISTS (SELECT 1 FROM steps WHERE run_id = $1 AND phase <> 'done')
            AND ${ASYNC_COMMIT}
          RETURNING id, tenant)
       INSERT INTO steps (run_id, tenant, n, phase, started_at, lease_owner, lease_until)
       SELECT id, tenant, $2, 'observing', $3, $4,
              clock_timestamp() + ($5 || ' milliseconds')::interval
         FROM counted
       RETURNING id`,
      [run.id, n, startedAt, this.workerId, String(this.config.STEP_LEASE_MS)],
    );
    if (rows.length === 0) return null;
    run.stepCount = n;
    const step = this.stepFromRow({});
    Object.assign(step, {
      id: rows[0].id,
      runId: run.id,
      tenant: run.tenant,
      n,
      phase: 'observing',
      startedAt,
      leaseOwner: this.workerId,
    });
    return step;
  }

  /**
   * The run a job is for, with the phase of its current step (null before step 1), read with one
   * plain statement (no query builder on the hot path).
   */
  private async findRun(id: string): Promise<(Run & { currentPhase: StepPhase | null }) | null> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT r.*, s.phase AS current_phase
         FROM runs r LEFT JOIN steps s ON s.run_id = r.id AND s.n = r.step_count
        WHERE r.id = $1`,
      [id],
    );
    if (rows.length === 0) return null;
    const run = this.entityFromRow(Run, rows[0]);
    return Object.assign(run, {
      currentPhase: (rows[0].current_phase ?? null) as StepPhase | null,
    });
  }

  /** A step entity from a row of `steps` (columns by their database names; missing ones null). */
  private stepFromRow(row: Record<string, unknown>): Step {
    return this.entityFromRow(Step, row);
  }

  /** An entity from a raw row: every column by its database name (null when the row lacks it). */
  private entityFromRow<T extends object>(target: new () => T, row: Record<string, unknown>): T {
    const entity = new target();
    for (const column of this.dataSource.getMetadata(target).columns) {
      (entity as Record<string, unknown>)[column.propertyName] = row[column.databaseName] ?? null;
    }
    return entity;
  }

  /**
   * Leases the step to this worker for the work, renewing the lease while it lasts; a step leased
   * to a live worker is left alone. A run that ends is ended here, in one place.
   */
  private async withStep(
    run: Run,
    n: number,
    timing: StepTiming,
    opened: Step | null,
    work: (ctx: StepContext, step: Step) => Promise<void>,
  ): Promise<void> {
    const leaseMs = this.config.STEP_LEASE_MS;
    let step = opened;
    if (!step) {
      const leased = updatedRows<Record<string, unknown>>(
        await this.dataSource.query(
          `UPDATE steps SET lease_owner = $3, lease_until = clock_timestamp() + ($4 || ' milliseconds')::interval
            WHERE run_id = $1 AND n = $2
              AND (lease_until IS NULL OR lease_until < clock_timestamp())
            RETURNING *`,
          [run.id, n, this.workerId, String(leaseMs)],
        ),
      );
      if (leased.length === 0) return;
      step = this.stepFromRow(leased[0]);
    }
    const stepId = step.id;
    // Within one process a step is worked on once, even when its lease ran out during a long
    // pause of the event loop and the reconciler queued it again.
    const key = `${run.id}.${n}`;
    if (this.inFlight.has(key)) return; // the lease we just took is the running job's: it keeps it
    this.inFlight.add(key);
    const renew = setInterval(
      () => {
        this.dataSource
          .query(
            `UPDATE steps SET lease_until = clock_timestamp() + ($3 || ' milliseconds')::interval
            WHERE id = $1 AND lease_owner = $2`,
            [stepId, this.workerId, String(leaseMs)],
          )
          .catch((error: unknown) =>
            this.logger.warn({ err: error }, 'could not renew a step lease'),
          );
      },
      Math.max(200, Math.floor(leaseMs / 3)),
    );
    try {
      const agent = run.agentConfig as unknown as AgentConfig;
      const ctx: StepContext = {
        run,
        agent,
        host: timedHost(this.client.forTarget(agent), timing),
        timing,
        rules: this.rulesFor(agent),
      };
      await work(ctx, step);
    } catch (error) {
      if (!(error instanceof RunEnds)) throw error;
      await this.endRun(run, step, error);
    } finally {
      this.inFlight.delete(key);
      clearInterval(renew);
      await this.release(stepId, timing);
    }
  }

  private rulesFor(agent: AgentConfig): Rules {
    const settings = {
      commit_words: agent.commit_words,
      unlabelled_clicks: agent.unlabelled_clicks,
    };
    const key = JSON.stringify(settings);
    let rules = this.rulesCache.get(key);
    if (!rules) {
      rules = loadRules(settings);
      if (this.rulesCache.size >= 256) this.rulesCache.clear();
      this.rulesCache.set(key, rules);
    }
    return rules;
  }

  /** Records where the job's time went and gives the step's lease back, in one statement. */
  private async release(stepId: string, t: StepTiming): Promise<void> {
    const round = (ms: number) => Math.round(ms * 100) / 100;
    const total = performance.now() - t.started;
    const entry = {
      job: t.job,
      total_ms: round(total),
      host_ms: round(t.hostMs),
      planner_ms: round(t.plannerMs),
      pause_ms: round(t.pauseMs),
      overhead_ms: round(total - t.hostMs - t.plannerMs - t.pauseMs),
    };
    await this.dataSource
      .query(
        `UPDATE steps SET timings = COALESCE(timings, '[]'::jsonb) || $2::jsonb,
                lease_owner = CASE WHEN lease_owner = $3 THEN NULL ELSE lease_owner END,
                lease_until = CASE WHEN lease_owner = $3 THEN NULL ELSE lease_until END
          WHERE id = $1 AND ${ASYNC_COMMIT}`,
        [stepId, JSON.stringify([entry]), this.workerId],
      )
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, 'could not record step timings and release the lease'),
      );
  }

  /** A deliberate pause (not overhead): a `wait` action, settling, mask samples. */
  private async pause(ctx: StepContext, ms: number): Promise<void> {
    const started = performance.now();
    try {
      await sleep(ms, undefined, { signal: this.abort.signal });
    } finally {
      ctx.timing.pauseMs += performance.now() - started;
    }
  }

  private async endRun(run: Run, step: Step, ends: RunEnds): Promise<void> {
    const ended = await this.dataSource.transaction(async (manager) => {
      if (step.phase !== 'done') {
        await this.finish(step, step.phase, ends.step.outcome, ends.step.fields ?? {}, manager);
      }
      if (ends.event) {
        await this.audit.record(
          {
            tenant: run.tenant,
            type: ends.event.type,
            actor: ACTOR,
            runId: run.id,
            step: step.n,
            details: { agent: run.agent, ...ends.event.details },
          },
          manager,
        );
      }
      return this.lifecycle.end(run.id, ends.reason, ends.summary, ACTOR, {
        step: step.n,
        manager,
      });
    });
    if (ended) await this.lifecycle.promote(ended.leaseKey);
  }

  // ---------------------------------------------------------------- observe, plan, check

  private async observeAndPlan(ctx: StepContext, step: Step): Promise<void> {
    const { run, agent } = ctx;
    // The planner and the run's history do not depend on the screen: read while it is taken.
    const looked = Promise.allSettled([
      this.planners.plannerFor(run.tenant, agent.planner),
      this.history(run.id, step.n),
    ]);
    let screen: ObservedScreen;
    try {
      screen = await this.observe(ctx);
    } finally {
      await looked; // settled either way, so nothing is left to fail unobserved
    }
    await this.setPhase(step, 'observing', 'planning', this.screenFields(screen), {
      durable: false,
    });
    step.phase = 'planning';

    const [plannerFound, historyFound] = await looked;
    if (plannerFound.status === 'rejected') throw plannerFound.reason;
    if (historyFound.status === 'rejected') throw historyFound.reason;
    const planner = plannerFound.value;
    if (!planner) throw new RunEnds('model_error', `the agent's planner is not available`);
    const history = historyFound.value;
    let result;
    const planStarted = performance.now();
    const hostBefore = ctx.timing.hostMs;
    try {
      result = await planner.plan({
        tenant: run.tenant,
        runId: run.id,
        agent: run.agent,
        goal: run.goal,
        system: agent.system,
        step: step.n,
        screen,
        history,
        state: run.plannerState ?? null,
        look: () => this.observe(ctx),
        signal: this.abort.signal,
      });
    } catch (error) {
      if (error instanceof ScreenHostError) throw this.hostFailure(error);
      if (error instanceof BudgetExhaustedError) {
        throw new RunEnds('budget_exhausted', error.message, {
          outcome: null,
          fields: { error: error.message },
        });
      }
      this.logger.warn({ err: error, run: run.id, step: step.n }, 'the planner failed');
      throw new RunEnds('model_error', `the planner failed: ${(error as Error).message}`);
    } finally {
      // The planner's own time; screenshots it asked for (look) count as the host's.
      ctx.timing.plannerMs += performance.now() - planStarted - (ctx.timing.hostMs - hostBefore);
    }
    if (result.screen && result.screen.sha256 !== screen.sha256) {
      // The planner looked again and decided on a newer screen: that one is the step's screen.
      screen = result.screen;
    }
    // Kept on the run together with this step's decision (decide), never before it.
    ctx.plannerState = JSON.stringify(result.state ?? null);

    const focus = lastClickFocus(history, screen);
    const screenContext = {
      width: screen.width,
      height: screen.height,
      outline: screen.outline,
      focus,
    };
    let ocr: string | null = null;
    const parsedForOcr = checkAction(result.action, screenContext, ctx.rules);
    if (parsedForOcr.action && needsOcr(parsedForOcr.action, screenContext, ctx.rules)) {
      const a = parsedForOcr.action as Action & { x: number; y: number };
      ocr = await this.readLabel(screen, a.x, a.y);
    }
    const verdict =
      ocr === null ? parsedForOcr : checkAction(result.action, screenContext, ctx.rules, ocr);
    const recorded = (verdict.action ?? safeJson(result.action)) as Record<string, unknown> | null;
    const fields = {
      ...this.screenFields(screen),
      action: recorded,
      classification: verdict.classification,
      why: verdict.why,
      model: (result.model ?? null) as Record<string, unknown> | null,
    };

    if (verdict.classification === 'invalid' || !verdict.action) {
      return this.refuse(ctx, step, fields);
    }
    const action = verdict.action;
    if (action.action === 'done' || action.action === 'fail') {
      throw new RunEnds(
        action.action === 'done' ? 'done' : 'fail',
        action.action === 'done' ? action.summary : action.reason,
        { outcome: 'ended', fields },
      );
    }
    if (action.action === 'wait') {
      await this.decide(ctx, step, 'planning', 'planning', fields);
      await this.pause(ctx, Math.min(action.seconds, 10) * 1000);
      await this.finish(step, 'planning', 'sent', {});
      return this.next(ctx, step);
    }
    // Safety checks a model provider raised hold the action for a person, whatever the rules say.
    const checks = result.safetyChecks ?? [];
    if (checks.length > 0 && SCREEN_ACTIONS.has(action.action)) {
      const codes = checks.map((c) => c.code ?? c.id).join(', ');
      const why = `the model provider raised safety checks (${codes}), so a person decides; the rules say: ${verdict.why}`;
      const held = { ...fields, classification: 'write' as const, why };
      return this.hold(ctx, step, action, why, screen, held, checks);
    }
    if (verdict.classification === 'write' && agent.require_write_approval) {
      return this.hold(ctx, step, action, verdict.why, screen, fields);
    }
    return this.send(ctx, step, action, { from: 'planning', before: screen, fields });
  }

  /** A fresh screenshot and outline, stored once per distinct SHA-256. */
  private async observe(ctx: StepContext): Promise<ObservedScreen> {
    try {
      const shot = await ctx.host.screenshot();
      const [stored, outline] = await Promise.all([
        this.screens.store(ctx.run.tenant, shot),
        ctx.host.elements(),
      ]);
      return {
        sha256: stored.sha256,
        pixelSha256: stored.pixelSha256,
        width: shot.width,
        height: shot.height,
        png: shot.png,
        outline,
      };
    } catch (error) {
      if (error instanceof ScreenHostError) throw this.hostFailure(error);
      throw error;
    }
  }

  private screenFields(screen: ObservedScreen): StepFields {
    return {
      screenSha256: screen.sha256,
      screenPixelSha256: screen.pixelSha256,
      width: screen.width,
      height: screen.height,
    };
  }

  private async readLabel(screen: ObservedScreen, x: number, y: number): Promise<string | null> {
    try {
      const label = await this.ocr.readLabelAt(screen.png, x, y, {
        width: screen.width,
        height: screen.height,
      });
      return label?.text ?? null;
    } catch (error) {
      this.logger.warn(
        { err: error },
        'OCR could not read a label; the click is classified without it',
      );
      return null;
    }
  }

  private async history(runId: string, n: number): Promise<StepHistory[]> {
    return this.dataSource.query(
      `SELECT n, action, classification, why, outcome, error, screen_sha256
         FROM steps WHERE run_id = $1 AND n < $2 ORDER BY n`,
      [runId, n],
    );
  }

  private async refuse(ctx: StepContext, step: Step, fields: StepFields): Promise<void> {
    const { run } = ctx;
    const invalid = await this.dataSource.transaction(async (manager) => {
      await this.decide(
        ctx,
        step,
        'planning',
        'done',
        { ...fields, outcome: 'refused', endedAt: new Date() },
        manager,
      );
      const rows = updatedRows<{ invalid_actions: number }>(
        await manager.query(
          `UPDATE runs SET invalid_actions = invalid_actions + 1, updated_at = now()
            WHERE id = $1 AND status = 'running' RETURNING invalid_actions`,
          [run.id],
        ),
      );
      await this.audit.record(
        {
          tenant: run.tenant,
          type: 'computer_use.action.refused',
          actor: ACTOR,
          runId: run.id,
          step: step.n,
          details: { agent: run.agent, action: fields.action ?? null, why: fields.why },
        },
        manager,
      );
      return rows[0]?.invalid_actions ?? 0;
    });
    if (invalid >= 3) {
      throw new RunEnds(
        'invalid_actions',
        `${invalid} invalid actions; the last: ${fields.why ?? ''}`,
      );
    }
    return this.next(ctx, step);
  }

  // ---------------------------------------------------------------- holding a write

  private async hold(
    ctx: StepContext,
    step: Step,
    action: Action,
    why: string,
    screen: ObservedScreen,
    fields: StepFields,
    safetyChecks: ProviderSafetyCheck[] = [],
  ): Promise<void> {
    const { run, agent } = ctx;
    const mask = await this.learnMask(ctx);
    const expiresAt = new Date(Date.now() + agent.approval_timeout_seconds * 1000);
    const approval = await this.dataSource.transaction(async (manager) => {
      const moved = await this.decide(
        ctx,
        step,
        'planning',
        'held',
        { ...fields, outcome: 'held' },
        manager,
      );
      if (!moved) return null;
      const saved = await manager.save(
        manager.create(Approval, {
          tenant: run.tenant,
          kind: 'computer_use.write',
          status: 'pending',
          agent: run.agent,
          runId: run.id,
          step: step.n,
          stepId: step.id,
          action: action as unknown as Record<string, unknown>,
          why,
          screenSha256: screen.sha256,
          screenPixelSha256: String(fields.screenPixelSha256),
          volatileMask: mask?.toBuffer() ?? null,
          volatilePixels: mask?.size ?? 0,
          requestedBy: run.createdBy,
          requestedByToken: run.createdByToken,
          expiresAt,
          safetyChecks: safetyChecks.length > 0 ? safetyChecks : null,
        }),
      );
      const waiting = await this.lifecycle.transition(
        manager,
        run.id,
        'running',
        'awaiting_approval',
        {
          pendingApproval: saved.id,
        },
      );
      if (!waiting) throw new Error('the run left running while its write was being held');
      await this.audit.record(
        {
          tenant: run.tenant,
          type: 'computer_use.write.held',
          actor: ACTOR,
          runId: run.id,
          step: step.n,
          details: {
            agent: run.agent,
            approval_id: saved.id,
            action,
            why,
            screen_sha256: screen.sha256,
            screen_pixel_sha256: fields.screenPixelSha256,
            volatile_pixels: saved.volatilePixels,
            expires_at: expiresAt.toISOString(),
            ...(safetyChecks.length > 0 ? { safety_checks: safetyChecks } : {}),
          },
        },
        manager,
      );
      return saved;
    });
    if (approval) await this.queue.expire(approval.id, approval.expiresAt);
  }

  /**
   * Samples the screen a few times over about a second and keeps the pixels that changed between
   * samples by themselves (a blinking caret, a clock). The planner's own screenshot is left out on
   * purpose: a real change between planning and holding must stay visible to the resume check.
   */
  private async learnMask(ctx: StepContext): Promise<VolatileMask | null> {
    // Samples with equal PNG bytes have equal pixels and add nothing to the mask: only the first
    // of each is decoded, and a screen that never changed is not decoded at all.
    const samples = new Map<string, Buffer>();
    try {
      for (let i = 0; i < this.config.MASK_SAMPLES; i++) {
        if (i > 0) await this.pause(ctx, this.config.MASK_INTERVAL_MS);
        const shot = await ctx.host.screenshot();
        if (!samples.has(shot.pngSha256)) samples.set(shot.pngSha256, shot.png);
      }
    } catch (error) {
      if (error instanceof ScreenHostError) throw this.hostFailure(error);
      throw error;
    }
    if (samples.size < 2) return null;
    const mask = learnVolatileMask([...samples.values()].map((png) => decodePng(png)));
    if (mask.size === 0) return null;
    if (mask.size > mask.width * mask.height * MAX_VOLATILE_FRACTION) {
      // A screen that keeps moving over a large area is not "blinking": masking it could hide a
      // real change from the resume check, so nothing is masked and any change will be stale.
      this.logger.warn(
        { run: ctx.run.id, pixels: mask.size },
        'the screen kept moving; no volatile mask',
      );
      return null;
    }
    return mask;
  }

  // ---------------------------------------------------------------- sending

  /** The approval was spent by a resume: compare the screen with the held one, then send once. */
  private async sendApproved(ctx: StepContext, step: Step): Promise<void> {
    // The fresh screenshot is taken while the approval and the kill switch are read: a screenshot
    // changes nothing, and the write still goes only after both checks and the comparison.
    const shot = this.freshScreenshot(ctx);
    const [approval, kill] = await Promise.all([
      this.dataSource.getRepository(Approval).findOneByOrFail({ stepId: step.id }),
      this.settings.killSwitch(ctx.run.tenant, ctx.run.agent),
    ]).catch(async (error: unknown) => {
      await shot.catch(() => undefined); // never left to fail unobserved
      throw error;
    });
    if (kill?.engaged) {
      await shot.catch(() => undefined);
      throw new RunEnds('killed', `kill switch engaged: ${kill.reason}`, {
        outcome: 'refused',
        fields: { error: `kill switch engaged before the approved write was sent: ${kill.reason}` },
      });
    }
    const stale = await this.staleness(ctx, step, approval, shot);
    if (stale) throw staleEnd(stale, approval);
    return this.send(ctx, step, approval.action as unknown as Action, {
      from: step.phase,
      approval,
    });
  }

  /** A screenshot, or the screen host's failure as the run's end (it does not reject for it). */
  private freshScreenshot(ctx: StepContext): Promise<Screenshot | RunEnds> {
    return ctx.host.screenshot().catch((error: unknown) => {
      if (error instanceof ScreenHostError) return this.hostFailure(error);
      throw error;
    });
  }

  /** Why the screen is no longer the one the approver saw, or null when it still is. */
  private async staleness(
    ctx: StepContext,
    step: Step,
    approval: Approval,
    shot: Promise<Screenshot | RunEnds> = this.freshScreenshot(ctx),
  ): Promise<string | null> {
    const fresh = await shot;
    if (fresh instanceof RunEnds) throw fresh;
    // Equal PNG bytes (the same SHA-256) are the same pixels: no need to load the held PNG.
    if (fresh.pngSha256 === approval.screenSha256) return null;
    const held = await this.screens.get(ctx.run.tenant, approval.screenSha256);
    if (!held) return 'the held screenshot is missing';
    const result = compareScreens(held, fresh.png, {
      mask: approval.volatileMask ? VolatileMask.fromBuffer(approval.volatileMask) : undefined,
      ignoreRegions: ctx.agent.ignore_regions,
      regionSpace: { width: fresh.width, height: fresh.height },
    });
    return result.same ? null : result.why;
  }

  /**
   * Sends one action with the step's Idempotency-Key. The step says `sending` before the request
   * leaves, so a worker that dies here is found by the next one (recoverSending).
   */
  private async send(
    ctx: StepContext,
    step: Step,
    action: Action,
    options: {
      from: StepPhase;
      before?: ObservedScreen;
      approval?: Approval;
      /** The step's decision, recorded in the same statement that says `sending`. */
      fields?: StepFields;
    },
  ): Promise<void> {
    const { run } = ctx;
    const moved = options.fields
      ? await this.decide(ctx, step, options.from, 'sending', options.fields)
      : updatedRows(
          await this.dataSource.query(
            `UPDATE steps SET phase = 'sending'
              WHERE id = $1 AND phase = $2
                AND EXISTS (SELECT 1 FROM runs WHERE id = $3 AND status = 'running')
              RETURNING id`,
            [step.id, options.from, run.id],
          ),
        ).length > 0;
    if (!moved) return; // cancelled or taken over meanwhile: nothing was sent
    step.phase = 'sending';
    const write = options.approval !== undefined || step.classification === 'write';
    if (write) this.fault('before-send');
    try {
      await ctx.host.act(action, step.id);
    } catch (error) {
      if (!(error instanceof ScreenHostError)) throw error;
      return this.afterFailedSend(ctx, step, action, error, options.approval);
    }
    if (write) this.fault('after-send');
    await this.sent(ctx, step, action, options.approval);
  }

  /** The action reached the host: record it, audit a write, wait for the screen, go on. */
  private async sent(
    ctx: StepContext,
    step: Step,
    action: Action,
    approval?: Approval,
  ): Promise<void> {
    const { run } = ctx;
    const write = approval !== undefined || step.classification === 'write';
    const outcome: StepOutcome = approval ? 'sent_after_approval' : 'sent';
    let recorded: boolean;
    if (!write) {
      // A read has no audit event: one statement records it.
      recorded = await this.finish(step, 'sending', outcome, {});
    } else {
      recorded = await this.dataSource.transaction(async (manager) => {
        // Whoever records the send first audits it; a second recorder (a takeover) does not.
        if (!(await this.finish(step, 'sending', outcome, {}, manager))) return false;
        await this.audit.record(
          {
            tenant: run.tenant,
            type: 'computer_use.write',
            actor: ACTOR,
            runId: run.id,
            step: step.n,
            details: {
              agent: run.agent,
              action,
              why: step.why,
              idempotency_key: step.id,
              approval_id: approval?.id ?? null,
              approved_by: approval?.decidedBy ?? null,
              resumed_by: approval?.spentBy ?? null,
              without_approval: approval
                ? undefined
                : 'require_write_approval is off for this agent',
            },
          },
          manager,
        );
        return true;
      });
    }
    if (!recorded) return;
    const now = SCREEN_ACTIONS.has(action.action)
      ? await this.settleAndCheckStall(ctx, step)
      : undefined;
    return this.next(ctx, step, now);
  }

  /**
   * The request failed. Whether the host acted is known only by asking it (GET /actions/{key});
   * a host that cannot say leaves the outcome unknown, which a person must check.
   */
  private async afterFailedSend(
    ctx: StepContext,
    step: Step,
    action: Action,
    error: ScreenHostError,
    approval?: Approval,
  ): Promise<void> {
    if (error.kind === 'refused' || error.kind === 'unauthorized' || error.kind === 'config') {
      // The host answered and did not act.
      const refused = `the screen host refused the action: ${error.message}`;
      throw new RunEnds('screen_host_error', refused, {
        outcome: 'refused',
        fields: { error: refused },
      });
    }
    const performed = await this.askHost(ctx, step);
    if (performed === true) return this.sent(ctx, step, action, approval);
    const write = approval !== undefined || step.classification === 'write';
    const message = `the screen host did not answer the action (${error.message})`;
    if (performed === false) {
      throw new RunEnds('screen_host_error', `${message}; nothing was sent`, {
        outcome: 'refused',
        fields: { error: `${message}; it says it did not act` },
      });
    }
    const unknown = { outcome: null, fields: { error: `${message}; whether it acted is unknown` } };
    if (write) {
      throw new RunEnds('outcome_unknown', `${message}; check the screen before going on`, unknown);
    }
    throw new RunEnds('screen_host_error', message, unknown);
  }

  /** Did the host perform this step's key? true, false, or null when it cannot tell us. */
  private async askHost(ctx: StepContext, step: Step): Promise<boolean | null> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return (await ctx.host.lookupAction(step.id)).performed;
      } catch (error) {
        if (!(error instanceof ScreenHostError)) throw error;
        if (error.kind === 'refused' || error.kind === 'bad_answer') return null;
        await this.pause(ctx, 200 * 2 ** attempt);
      }
    }
    return null;
  }

  /**
   * A worker died while the step was `sending`. Ask the host whether the key was performed: yes,
   * record it; no, check the screen again as if for the first time and send; cannot tell: a
   * write's outcome is unknown (DESIGN §11), a read is sent again under the same key.
   */
  private async recoverSending(ctx: StepContext, step: Step): Promise<void> {
    const approval = await this.dataSource
      .getRepository(Approval)
      .findOneBy({ stepId: step.id, status: 'spent' });
    const action = (approval?.action ?? step.action) as unknown as Action;
    const write = approval !== null || step.classification === 'write';
    const performed = await this.askHost(ctx, step);
    if (performed === true) return this.sent(ctx, step, action, approval ?? undefined);
    if (performed === null && write) {
      throw new RunEnds(
        'outcome_unknown',
        'whether the write was sent is unknown; check the screen',
        {
          outcome: null,
          fields: {
            error:
              'a worker stopped while sending this write and the screen host cannot say whether it acted',
          },
        },
      );
    }
    if (write) {
      // Not performed: the screen must still be the one the write was decided (or approved) on.
      const stale = approval
        ? await this.staleness(ctx, step, approval)
        : await this.changedSince(ctx, step);
      if (stale) throw staleEnd(stale, approval);
    }
    step.phase = 'sending';
    try {
      await ctx.host.act(action, step.id);
    } catch (error) {
      if (!(error instanceof ScreenHostError)) throw error;
      return this.afterFailedSend(ctx, step, action, error, approval ?? undefined);
    }
    await this.sent(ctx, step, action, approval ?? undefined);
  }

  private async changedSince(ctx: StepContext, step: Step): Promise<string | null> {
    const held = step.screenSha256
      ? await this.screens.get(ctx.run.tenant, step.screenSha256)
      : null;
    if (!held) return 'the step has no screenshot to compare with';
    const fresh = await ctx.host.screenshot();
    const result = compareScreens(held, fresh.png, {
      ignoreRegions: ctx.agent.ignore_regions,
      regionSpace: { width: fresh.width, height: fresh.height },
    });
    return result.same ? null : result.why;
  }

  /**
   * Waits until the screen is settled (two equal screenshots in a row, bounded) and counts screen
   * actions after which nothing changed: `stall_after` in a row stop the run `stalled`.
   */
  private async settleAndCheckStall(ctx: StepContext, step: Step): Promise<RunNow | null> {
    let previous: Screenshot | null = null;
    let settled: Screenshot | null = null;
    const until = Date.now() + this.config.SETTLE_MAX_MS;
    try {
      for (;;) {
        const shot = await ctx.host.screenshot();
        if (previous && shot.pngSha256 === previous.pngSha256) {
          settled = shot;
          break;
        }
        previous = shot;
        if (Date.now() >= until) break;
        await this.pause(ctx, this.config.SETTLE_INTERVAL_MS);
      }
    } catch (error) {
      if (error instanceof ScreenHostError) throw this.hostFailure(error);
      throw error;
    }
    const after = settled ?? previous;
    const unchanged = after !== null && after.pngSha256 === step.screenSha256;
    const rows = updatedRows<{ unchanged_streak: number; status: string; step_count: number }>(
      await this.dataSource.query(
        `UPDATE runs SET unchanged_streak = CASE WHEN $2 THEN unchanged_streak + 1 ELSE 0 END, updated_at = now()
          WHERE id = $1 AND status = 'running' RETURNING unchanged_streak, status, step_count`,
        [ctx.run.id, unchanged],
      ),
    );
    const streak = rows[0]?.unchanged_streak ?? 0;
    if (streak >= ctx.agent.stall_after) {
      throw new RunEnds(
        'stalled',
        `${streak} screen actions in a row changed nothing on the screen`,
      );
    }
    return rows[0] ?? null;
  }

  // ---------------------------------------------------------------- small pieces

  /**
   * Queues the run's next step if the run is still running at this step. `now` is the run as a
   * statement of this job just returned it (null: not running), which saves reading it again.
   */
  private async next(ctx: StepContext, step: Step, now?: RunNow | null): Promise<void> {
    const run =
      now === undefined
        ? (
            await this.dataSource.query<RunNow[]>(
              `SELECT status, step_count FROM runs WHERE id = $1`,
              [ctx.run.id],
            )
          )[0]
        : now;
    if (run?.status === 'running' && run.step_count === step.n)
      await this.queue.step(ctx.run.id, step.n + 1);
  }

  /**
   * Moves the step from one phase to another with its fields, only if it is still where we left it.
   * `durable: false` (outside a transaction only): see ASYNC_COMMIT.
   */
  private async setPhase(
    step: Step,
    from: StepPhase,
    to: StepPhase,
    fields: StepFields,
    // Never both: inside a transaction, relaxing the commit would relax every write of it.
    options: { manager?: EntityManager; durable?: true } | { manager?: never; durable: false } = {},
  ): Promise<boolean> {
    const manager = options.manager ?? this.dataSource.manager;
    const params: unknown[] = [step.id, from, to];
    const sets = ['phase = $3', ...this.stepSets(fields, params)];
    const relaxed = options.durable === false ? ` AND ${ASYNC_COMMIT}` : '';
    const moved = updatedRows(
      await manager.query(
        `UPDATE steps SET ${sets.join(', ')} WHERE id = $1 AND phase = $2${relaxed} RETURNING id`,
        params,
      ),
    );
    if (moved.length > 0) Object.assign(step, fields, { phase: to });
    return moved.length > 0;
  }

  /**
   * Records what the step decided (its fields) and moves it from `from` to `to`, keeping the
   * planner's state on the run in the same statement. A decision recorded goes on from the
   * planner's next answer; one that was lost (a failed attempt, a worker gone) is planned again from
   * the same state, so no scripted action is skipped. A step moves to `sending` or `held` only
   * while its run is running; its decision is recorded either way.
   */
  private async decide(
    ctx: StepContext,
    step: Step,
    from: StepPhase,
    to: StepPhase,
    fields: StepFields,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const params: unknown[] = [step.id, from, to];
    const sets = this.stepSets(fields, params);
    const param = (value: unknown) => `$${params.push(value)}`;
    const onlyIfRunning = to === 'sending' || to === 'held';
    sets.push(
      onlyIfRunning
        ? `phase = CASE WHEN EXISTS (SELECT 1 FROM runs WHERE id = ${param(ctx.run.id)} AND status = 'running') THEN $3 ELSE phase END`
        : `phase = $3`,
    );
    let keep = '';
    if (ctx.plannerState !== undefined) {
      keep = `, kept AS (
         UPDATE runs SET planner_state = ${param(ctx.plannerState)}::jsonb, updated_at = now()
          WHERE id = ${param(ctx.run.id)} AND status = 'running'
            AND EXISTS (SELECT 1 FROM moved WHERE phase = $3))`;
    }
    const rows: Array<{ phase: StepPhase }> = await manager.query(
      `WITH moved AS (
         UPDATE steps SET ${sets.join(', ')} WHERE id = $1 AND phase = $2 RETURNING phase)${keep}
       SELECT phase FROM moved`,
      params,
    );
    if (rows.length === 0) return false;
    Object.assign(step, fields, { phase: rows[0].phase });
    return rows[0].phase === to;
  }

  /** `column = $k` for each field given, its value added to `params` (JSON as text, null as NULL). */
  private stepSets(fields: StepFields, params: unknown[]): string[] {
    const metadata = this.dataSource.getMetadata(Step);
    const sets: string[] = [];
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      const column = metadata.findColumnWithPropertyName(key);
      if (!column) throw new Error(`steps has no column for ${key}`);
      const json = column.type === 'jsonb';
      params.push(json && value !== null ? JSON.stringify(value) : value);
      sets.push(`${column.databaseName} = $${params.length}${json ? '::jsonb' : ''}`);
    }
    return sets;
  }

  private finish(
    step: Step,
    from: StepPhase,
    outcome: StepOutcome | null,
    fields: StepFields,
    manager?: EntityManager,
  ): Promise<boolean> {
    return this.setPhase(
      step,
      from,
      'done',
      { ...fields, outcome, endedAt: new Date() },
      { manager },
    );
  }

  private hostFailure(error: ScreenHostError): RunEnds {
    return new RunEnds('screen_host_error', `the screen host failed: ${error.message}`, {
      outcome: null,
      fields: { error: `screen host: ${error.message}` },
    });
  }

  /** Test hook: with TEST_CRASH_AT set, the worker dies at that point of sending a write, as kill -9 would. */
  private fault(point: 'before-send' | 'after-send'): void {
    if (this.config.TEST_CRASH_AT === point) process.kill(process.pid, 'SIGKILL');
  }
}

/** The run ends `stale_screen`: the write was not sent, and the audit trail says why. */
function staleEnd(why: string, approval: Approval | null): RunEnds {
  return new RunEnds(
    'stale_screen',
    `the screen changed after the write was ${approval ? 'approved' : 'decided'}: ${why}`,
    { outcome: 'stale', fields: { error: why } },
    {
      type: 'computer_use.write.stale',
      details: { approval_id: approval?.id ?? null, action: approval?.action ?? null, why },
    },
  );
}

/** The element the run last clicked, on this screen: where typing goes when the host marks no focus. */
function lastClickFocus(history: StepHistory[], screen: ObservedScreen) {
  if (!screen.outline) return null;
  for (let i = history.length - 1; i >= 0; i--) {
    const action = history[i].action as { action?: string; x?: number; y?: number } | null;
    if (history[i].outcome !== 'sent' && history[i].outcome !== 'sent_after_approval') continue;
    if (action?.action === 'click' || action?.action === 'double_click') {
      return labelAt(screen.outline, action.x ?? -1, action.y ?? -1);
    }
    if (action?.action === 'key') return null; // a key (Tab, Enter) may have moved the focus
  }
  return null;
}

/** A refused answer as it may be recorded: bounded, and with any card number masked. */
function safeJson(value: unknown): Record<string, unknown> | null {
  try {
    const raw = JSON.stringify(value);
    if (raw === undefined) return null;
    const text = maskCardNumbers(raw);
    // Keep a refused answer readable but bounded.
    return text.length > 4000
      ? { truncated: text.slice(0, 4000) }
      : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    return null;
  }
}
