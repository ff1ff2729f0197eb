import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { updatedRows } from '../../sql/sql';

export type WorkStatus = 'waiting' | 'claimed' | 'answered' | 'failed' | 'timed_out' | 'offline';

/** One step waiting for (or given) a remote planner's decision: a row of `planner_work`. */
export interface WorkRow {
  id: string;
  tenant: string;
  family: string;
  /** The catalog id the agent names. */
  planner: string;
  runId: string;
  step: number;
  status: WorkStatus;
  /** What the worker is given: the published input (docs/planners.md). */
  input: Record<string, unknown>;
  /** The screen the step was published on, for the engine to judge the decision on it. */
  screen: PublishedScreen;
  worker: string | null;
  claimedByToken: string | null;
  claimedAt: Date | null;
  decision: unknown;
  /** An error answer: its kind (a short code) where the worker gave one; never its text. */
  errorKind: string | null;
  errorLength: number | null;
  answeredAt: Date | null;
  createdAt: Date;
  deadlineAt: Date;
}

/** The step's screen, without its bytes (they are in the screen store). */
export interface PublishedScreen {
  sha256: string;
  pixelSha256: string;
  width: number;
  height: number;
  frameSha256: string | null;
  hiddenSha256: string | null;
  outline: unknown[] | null;
}

export type NewWork = Pick<
  WorkRow,
  'tenant' | 'family' | 'planner' | 'runId' | 'step' | 'input' | 'screen' | 'deadlineAt'
>;

interface Raw {
  id: string;
  tenant: string;
  family: string;
  planner: string;
  run_id: string;
  step: number;
  status: WorkStatus;
  input: Record<string, unknown>;
  screen: PublishedScreen;
  worker: string | null;
  claimed_by_token: string | null;
  claimed_at: Date | null;
  decision: unknown;
  error_kind: string | null;
  error_length: number | null;
  answered_at: Date | null;
  created_at: Date;
  deadline_at: Date;
}

const COLUMNS = `id, tenant, family, planner, run_id, step, status, input, screen, worker,
  claimed_by_token, claimed_at, decision, error_kind, error_length, answered_at, created_at,
  deadline_at`;

const at = (d: Date | null) => (d ? new Date(d) : null);

function toRow(r: Raw): WorkRow {
  return {
    id: r.id,
    tenant: r.tenant,
    family: r.family,
    planner: r.planner,
    runId: r.run_id,
    step: r.step,
    status: r.status,
    input: r.input,
    screen: r.screen,
    worker: r.worker,
    claimedByToken: r.claimed_by_token,
    claimedAt: at(r.claimed_at),
    decision: r.decision,
    errorKind: r.error_kind,
    errorLength: r.error_length,
    answeredAt: at(r.answered_at),
    createdAt: new Date(r.created_at),
    deadlineAt: new Date(r.deadline_at),
  };
}

/** A step whose run still runs and that nobody answered yet. */
const OPEN = `w.status IN ('waiting', 'claimed')
  AND EXISTS (SELECT 1 FROM runs r WHERE r.id = w.run_id AND r.status = 'running')`;

/** The SQL of `planner_work` (docs/planners.md "Remote planners"). */
@Injectable()
export class PlannerWorkRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async ofStep(runId: string, step: number): Promise<WorkRow | null> {
    const rows: Raw[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM planner_work WHERE run_id = $1 AND step = $2`,
      [runId, step],
    );
    return rows.length > 0 ? toRow(rows[0]) : null;
  }

  /** The run's step waiting for (or claimed by) its planner now, if its run still runs. */
  async openOfRun(tenant: string, runId: string): Promise<WorkRow | null> {
    const rows: Raw[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM planner_work w
        WHERE w.tenant = $1 AND w.run_id = $2 AND w.deadline_at > now() AND ${OPEN}
        ORDER BY w.step DESC LIMIT 1`,
      [tenant, runId],
    );
    return rows.length > 0 ? toRow(rows[0]) : null;
  }

  async get(tenant: string, id: string): Promise<WorkRow | null> {
    const rows: Raw[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM planner_work WHERE id = $1 AND tenant = $2`,
      [id, tenant],
    );
    return rows.length > 0 ? toRow(rows[0]) : null;
  }

  /**
   * Publishes the step's work unless the tenant has `maxOpen` steps waiting already (`busy`); the
   * count and the insert are one transaction under the tenant's lock, so concurrent steps cannot
   * both slip under the bound. A step published before (a retried job) answers its row.
   */
  async publish(work: NewWork, maxOpen: number): Promise<WorkRow | 'busy'> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('planner_work:' || $1))`, [
        work.tenant,
      ]);
      const existing: Raw[] = await manager.query(
        `SELECT ${COLUMNS} FROM planner_work WHERE run_id = $1 AND step = $2`,
        [work.runId, work.step],
      );
      if (existing.length > 0) return toRow(existing[0]);
      const [{ open }]: Array<{ open: number }> = await manager.query(
        `SELECT count(*)::int AS open FROM planner_work w WHERE w.tenant = $1 AND ${OPEN}`,
        [work.tenant],
      );
      if (open >= maxOpen) return 'busy';
      const rows: Raw[] = await manager.query(
        `INSERT INTO planner_work (tenant, family, planner, run_id, step, status, input, screen,
           deadline_at)
         VALUES ($1, $2, $3, $4, $5, 'waiting', $6, $7, $8)
         RETURNING ${COLUMNS}`,
        [
          work.tenant,
          work.family,
          work.planner,
          work.runId,
          work.step,
          JSON.stringify(work.input),
          JSON.stringify(work.screen),
          work.deadlineAt,
        ],
      );
      return toRow(rows[0]);
    });
  }

  /** How many steps of the tenant wait for a remote planner now. */
  async openCount(tenant: string): Promise<number> {
    const [{ open }]: Array<{ open: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS open FROM planner_work w WHERE w.tenant = $1 AND ${OPEN}`,
      [tenant],
    );
    return open;
  }

  /** The tenant's steps waiting for a worker of these families (not claimed), oldest first. */
  async waiting(tenant: string, families: string[], limit: number): Promise<WorkRow[]> {
    const rows: Raw[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM planner_work w
        WHERE w.tenant = $1 AND w.family = ANY($2::text[]) AND w.status = 'waiting'
          AND w.deadline_at > now() AND ${OPEN}
        ORDER BY w.created_at, w.id LIMIT $3`,
      [tenant, families, limit],
    );
    return rows.map(toRow);
  }

  /**
   * The claim, in one statement: of concurrent claims exactly one finds the row still `waiting`
   * and wins; null for every other (and for work not of the tenant, its families, or a running run).
   */
  async claim(
    tenant: string,
    families: string[],
    id: string,
    worker: string,
    tokenId: string,
  ): Promise<WorkRow | null> {
    const rows = updatedRows<Raw>(
      await this.dataSource.query(
        `UPDATE planner_work w SET status = 'claimed', worker = $4, claimed_by_token = $5,
           claimed_at = now()
          WHERE w.id = $1 AND w.tenant = $2 AND w.family = ANY($3::text[])
            AND w.status = 'waiting' AND w.deadline_at > now() AND ${OPEN}
          RETURNING ${COLUMNS}`,
        [id, tenant, families, worker, tokenId],
      ),
    );
    return rows.length > 0 ? toRow(rows[0]) : null;
  }

  /**
   * The claimer's answer, once: a decision, or an error (its kind and length only). Null when the
   * work is not claimed by this worker and token, already answered, or past its deadline.
   */
  async answer(
    tenant: string,
    id: string,
    worker: string,
    tokenId: string,
    answer: { decision: unknown } | { errorKind: string | null; errorLength: number },
  ): Promise<WorkRow | null> {
    const isDecision = 'decision' in answer;
    const rows = updatedRows<Raw>(
      await this.dataSource.query(
        `UPDATE planner_work w SET status = $5, decision = $6, error_kind = $7,
           error_length = $8, answered_at = now()
          WHERE w.id = $1 AND w.tenant = $2 AND w.worker = $3 AND w.claimed_by_token = $4
            AND w.status = 'claimed' AND w.deadline_at > now() AND ${OPEN}
          RETURNING ${COLUMNS}`,
        [
          id,
          tenant,
          worker,
          tokenId,
          isDecision ? 'answered' : 'failed',
          isDecision ? JSON.stringify(answer.decision ?? null) : null,
          isDecision ? null : answer.errorKind,
          isDecision ? null : answer.errorLength,
        ],
      ),
    );
    return rows.length > 0 ? toRow(rows[0]) : null;
  }

  /** Ends work nobody answered (`timed_out`, `offline`); false when it was answered meanwhile. */
  async close(id: string, status: 'timed_out' | 'offline'): Promise<boolean> {
    const rows = updatedRows<Raw>(
      await this.dataSource.query(
        `UPDATE planner_work SET status = $2 WHERE id = $1 AND status IN ('waiting', 'claimed')
          RETURNING id`,
        [id, status],
      ),
    );
    return rows.length > 0;
  }

  /** When the engine is next to look at the work (its check job's time). */
  async setNextCheck(id: string, at: Date): Promise<void> {
    await this.dataSource.query(`UPDATE planner_work SET next_check_at = $2 WHERE id = $1`, [
      id,
      at,
    ]);
  }

  /**
   * Every open step of every tenant, with when its check is due (for the reconciler, which
   * re-arms a check that is overdue: its job was lost with Redis, or met a busy lease).
   */
  async open(
    limit = 1000,
  ): Promise<Array<{ id: string; runId: string; step: number; nextCheckAt: Date | null }>> {
    const rows: Array<{ id: string; run_id: string; step: number; next_check_at: Date | null }> =
      await this.dataSource.query(
        `SELECT w.id, w.run_id, w.step, w.next_check_at FROM planner_work w WHERE ${OPEN}
          ORDER BY w.created_at LIMIT $1`,
        [limit],
      );
    return rows.map((r) => ({
      id: r.id,
      runId: r.run_id,
      step: r.step,
      nextCheckAt: at(r.next_check_at),
    }));
  }
}
