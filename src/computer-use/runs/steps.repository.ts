import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ASYNC_COMMIT, entityFromRow, setClauses, updatedRows } from '../../sql/sql';
import type { StepHistory } from '../planner-contract/planner';
import type { RunStatus } from './run-status';
import { assertStepMove as assertMove, StepPhase } from './step-phase';
import { Step, StepTimingEntry } from './step.entity';

/** Columns of a step that move with its phase. */
export type StepFields = Partial<Omit<Step, 'run' | 'id' | 'runId' | 'tenant' | 'n' | 'phase'>>;

/**
 * How a step's phase is written. `durable: false` commits without waiting for the disk (see
 * ASYNC_COMMIT), for bookkeeping only, and never inside a transaction: there it would relax every
 * write of the transaction.
 */
export type MoveOptions =
  { manager?: EntityManager; durable?: true } | { manager?: never; durable: false };

/**
 * The steps table: a step is opened and leased in one statement, moved from phase to phase only
 * through the state machine (step-phase.ts) and only from the phase it was read in, so that of
 * two workers one wins. Hand-written SQL on the engine's hot path, in one place.
 *
 * Moving a step to `sending` is the send gate's (send-gate.repository.ts): the checks that may
 * forbid a send are read in the statement that marks it.
 *
 * Lock order: a transaction that changes a run and one of its steps locks the run's row first
 * (a run's end changes the run, then closes its unfinished steps; `decide` and `markSending` lock
 * the run in the statement that moves the step; RunEnding locks it before the step's last move),
 * so a run's end and its step's worker may wait for one another but never both at once (a
 * deadlock).
 */
@Injectable()
export class StepsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Creates step `n`, counts it on the run and leases it to `owner`, in one statement: once,
   * whoever else tries at the same time, and never while an earlier step of the run is unfinished:
   * held, approved, sending, or done but still leased (its job is settling the screen or reading a
   * write's receipt; a dead worker's lease runs out). A step that is done stays done, and a lease
   * given back is not taken again, so what the statement sees cannot be undone before it commits.
   * Null when the step could not be opened.
   */
  async open(
    run: { id: string; tenant: string },
    n: number,
    owner: string,
    leaseMs: number,
  ): Promise<Step | null> {
    const startedAt = new Date();
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `WITH counted AS (
         UPDATE runs SET step_count = $2, updated_at = now()
          WHERE id = $1 AND step_count = $2 - 1 AND status = 'running'
            AND NOT EXISTS (SELECT 1 FROM steps WHERE run_id = $1
                              AND (phase <> 'done' OR (lease_owner IS NOT NULL AND lease_until > now())))
            AND ${ASYNC_COMMIT}
          RETURNING id, tenant)
       INSERT INTO steps (run_id, tenant, n, phase, started_at, lease_owner, lease_until)
       SELECT id, tenant, $2, 'observing', $3, $4,
              clock_timestamp() + ($5 || ' milliseconds')::interval
         FROM counted
       RETURNING id`,
      [run.id, n, startedAt, owner, String(leaseMs)],
    );
    if (rows.length === 0) return null;
    return Object.assign(this.fromRow({}), {
      id: rows[0].id,
      runId: run.id,
      tenant: run.tenant,
      n,
      phase: 'observing' as const,
      startedAt,
      leaseOwner: owner,
    });
  }

  /** Leases step `n` to `owner` unless a live lease holds it; null when one does. */
  async lease(runId: string, n: number, owner: string, leaseMs: number): Promise<Step | null> {
    const leased = updatedRows<Record<string, unknown>>(
      await this.dataSource.query(
        `UPDATE steps SET lease_owner = $3, lease_until = clock_timestamp() + ($4 || ' milliseconds')::interval
          WHERE run_id = $1 AND n = $2
            AND (lease_until IS NULL OR lease_until < clock_timestamp())
          RETURNING *`,
        [runId, n, owner, String(leaseMs)],
      ),
    );
    return leased.length > 0 ? this.fromRow(leased[0]) : null;
  }

  async renewLease(stepId: string, owner: string, leaseMs: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE steps SET lease_until = clock_timestamp() + ($3 || ' milliseconds')::interval
        WHERE id = $1 AND lease_owner = $2`,
      [stepId, owner, String(leaseMs)],
    );
  }

  /** Counts a job that failed on the step with an unexpected error; the count now. */
  async countFailure(stepId: string): Promise<number> {
    const rows = updatedRows<{ failures: number }>(
      await this.dataSource.query(
        `UPDATE steps SET failures = failures + 1 WHERE id = $1 RETURNING failures`,
        [stepId],
      ),
    );
    return rows[0]?.failures ?? 0;
  }

  /** Records where a job's time went and gives the lease back, in one statement. */
  async release(stepId: string, owner: string, timing: StepTimingEntry): Promise<void> {
    await this.dataSource.query(
      `UPDATE steps SET timings = COALESCE(timings, '[]'::jsonb) || $2::jsonb,
              lease_owner = CASE WHEN lease_owner = $3 THEN NULL ELSE lease_owner END,
              lease_until = CASE WHEN lease_owner = $3 THEN NULL ELSE lease_until END
        WHERE id = $1 AND ${ASYNC_COMMIT}`,
      [stepId, JSON.stringify([timing]), owner],
    );
  }

  /**
   * Moves the step from one phase to another with its fields, only if it is still where the caller
   * left it. The step object follows when it moved.
   */
  async move(
    step: Step,
    from: StepPhase,
    to: StepPhase,
    fields: StepFields,
    options: MoveOptions = {},
  ): Promise<boolean> {
    assertMove(from, to);
    const manager = options.manager ?? this.dataSource.manager;
    const params: unknown[] = [step.id, from, to];
    const sets = ['phase = $3', ...setClauses(this.dataSource, Step, fields, params)];
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

  /** Moves a step by id, for callers that hold no step object (a resume, a reject, an expiry). */
  async moveById(
    stepId: string,
    from: StepPhase,
    to: StepPhase,
    fields: StepFields,
    manager?: EntityManager,
  ): Promise<boolean> {
    return this.move(Object.assign(new Step(), { id: stepId }), from, to, fields, { manager });
  }

  /**
   * Records what the step decided (its fields) and moves it from `from` to `to`, keeping the
   * planner's state on the run in the same statement. A decision recorded goes on from the
   * planner's next answer; one that was lost (a failed attempt, a worker gone) is planned again from
   * the same state, so no scripted action is skipped. A step moves to `held` only while its run is
   * running (to `sending` only through markSending); its decision is recorded either way. True
   * when the step reached `to`.
   */
  async decide(
    step: Step,
    from: StepPhase,
    to: StepPhase,
    fields: StepFields,
    plannerState: string | undefined,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    assertMove(from, to);
    if (to === 'sending') throw new Error('a step is marked sending only through markSending');
    const params: unknown[] = [step.id, from, to];
    const sets = setClauses(this.dataSource, Step, fields, params);
    const param = (value: unknown) => `$${params.push(value)}`;
    const onlyIfRunning = to === 'held';
    sets.push(
      onlyIfRunning
        ? `phase = CASE WHEN EXISTS (SELECT 1 FROM runs WHERE id = ${param(step.runId)} AND status = 'running') THEN $3 ELSE phase END`
        : `phase = $3`,
    );
    let keep = '';
    if (plannerState !== undefined) {
      keep = `, kept AS (
         UPDATE runs SET planner_state = ${param(plannerState)}::jsonb, updated_at = now()
          WHERE id = ${param(step.runId)} AND status = 'running'
            AND EXISTS (SELECT 1 FROM moved WHERE phase = $3))`;
    }
    // The run's row is locked before the step's (the lock order above).
    const rows: Array<{ phase: StepPhase }> = await manager.query(
      `WITH locked AS (SELECT 1 FROM runs WHERE id = ${param(step.runId)} FOR NO KEY UPDATE),
       moved AS (
         UPDATE steps SET ${sets.join(', ')}
          WHERE id = $1 AND phase = $2 AND EXISTS (SELECT 1 FROM locked) RETURNING phase)${keep}
       SELECT phase FROM moved`,
      params,
    );
    if (rows.length === 0) return false;
    Object.assign(step, fields, { phase: rows[0].phase });
    return rows[0].phase === to;
  }

  /**
   * When a run ends (after its row changed, in the same transaction), its unfinished steps end
   * with it, unsent: a step still being observed or planned ends `ended` (whatever its planner
   * answers later is sent nowhere: every move of the step is conditional on its phase), one that
   * waits for a person (`held`) or for its send (`approved`) keeps its outcome `held`. A step that
   * is `sending` is left to its worker, whose outcome is unknown until it records one.
   */
  async closeUnfinished(manager: EntityManager, runId: string, reason: string): Promise<void> {
    const deciding: StepPhase[] = ['observing', 'planning'];
    const waiting: StepPhase[] = ['held', 'approved'];
    for (const from of [...deciding, ...waiting]) assertMove(from, 'done');
    await manager.query(
      `UPDATE steps SET phase = 'done', ended_at = now(),
              outcome = CASE WHEN phase = ANY($2) THEN 'ended' ELSE outcome END,
              error = CASE WHEN phase = ANY($2) THEN $4 ELSE $5 END
        WHERE run_id = $1 AND (phase = ANY($2) OR phase = ANY($3))`,
      [
        runId,
        deciding,
        waiting,
        `the run ended (${reason}) before the step's action was decided; nothing was sent`,
        `the run ended (${reason}) before it was sent`,
      ],
    );
  }

  /** How many steps in a row, ending with step `n`, met a changed screen instead of acting. */
  async screenChangesInARow(runId: string, n: number): Promise<number> {
    const rows: Array<{ count: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS count FROM steps
        WHERE run_id = $1 AND n <= $2 AND n > COALESCE(
          (SELECT max(n) FROM steps WHERE run_id = $1 AND n <= $2
              AND outcome IS DISTINCT FROM 'screen_changed'), 0)`,
      [runId, n],
    );
    return rows[0]?.count ?? 0;
  }

  /** Whether a step has ended, or its run has (then it never will). */
  async settled(stepId: string): Promise<boolean> {
    const rows: Array<{ phase: StepPhase; status: RunStatus }> = await this.dataSource.query(
      `SELECT s.phase, r.status FROM steps s JOIN runs r ON r.id = s.run_id WHERE s.id = $1`,
      [stepId],
    );
    return rows.length === 0 || rows[0].phase === 'done' || rows[0].status !== 'running';
  }

  /** The run's steps before `n`, as a planner is told about them. */
  history(runId: string, n: number): Promise<StepHistory[]> {
    return this.dataSource.query(
      `SELECT n, action, classification, why, outcome, error, screen_sha256, staged, edit,
            loosened_by, batch
         FROM steps WHERE run_id = $1 AND n < $2 ORDER BY n`,
      [runId, n],
    );
  }

  ofRun(runId: string): Promise<Step[]> {
    return this.dataSource.getRepository(Step).find({ where: { runId }, order: { n: 'ASC' } });
  }

  find(runId: string, n: number): Promise<Step | null> {
    return this.dataSource.getRepository(Step).findOneBy({ runId, n });
  }

  private fromRow(row: Record<string, unknown>): Step {
    return entityFromRow(this.dataSource, Step, row);
  }
}
