import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { decodeCursor, encodeCursor } from '../../common/cursor';
import { ASYNC_COMMIT, cursorTime, entityFromRow, updatedRows } from '../../sql/sql';
import { Run } from './run.entity';
import type { RunStatus } from './run-status';
import {
  GOVERNANCE_JOINS,
  type GovernanceRow,
  STORED_GOVERNANCE_COLUMNS,
  storedGovernance,
  type StoredGovernance,
} from '../settings/settings.repository';
import type { StepPhase } from './step-phase';
import { statusSets, type RunPatch } from './run-status-sets';

/** A run as a job reads it: with the phase of its current step (null before step 1). */
export type RunForJob = Run & { currentPhase: StepPhase | null };

/** A run for a step job, and the governance of its agent now, read together. */
export interface RunAndGovernance {
  run: RunForJob;
  governance: StoredGovernance;
}

/** A run's status and step count, as an UPDATE … RETURNING of a job gave them. */
export interface RunNow {
  status: string;
  step_count: number;
}

/** A running run as the reconciler sees it: its current step's phase and lease. */
export interface MovingRun {
  id: string;
  step_count: number;
  phase: StepPhase | null;
  lease_until: Date | null;
}

export interface RunPage {
  items: Run[];
  next_cursor: string | null;
}

/**
 * The runs table. Status changes are applied here only as RunLifecycle decides them (the state
 * machine in run-status.ts); the engine's per-step statements are plain SQL for speed.
 */
@Injectable()
export class RunsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(manager: EntityManager, fields: Partial<Run>): Promise<Run> {
    return manager.save(manager.create(Run, fields));
  }

  /**
   * The run, its current step's phase and its agent's governance now (config in force, kill switch,
   * pause), in one statement: what every step job reads before it does anything. The governance
   * read here only decides whether to go on; what forbids a send is read again in the statement
   * that marks it (SendGateRepository).
   */
  async findForJob(id: string): Promise<RunAndGovernance | null> {
    const rows: Array<Record<string, unknown> & GovernanceRow> = await this.dataSource.query(
      `SELECT r.*, s.phase AS current_phase, ${STORED_GOVERNANCE_COLUMNS}
         FROM runs r LEFT JOIN steps s ON s.run_id = r.id AND s.n = r.step_count
         ${GOVERNANCE_JOINS}
        WHERE r.id = $1`,
      [id],
    );
    if (rows.length === 0) return null;
    const run = entityFromRow(this.dataSource, Run, rows[0]);
    return {
      run: Object.assign(run, {
        currentPhase: (rows[0].current_phase ?? null) as StepPhase | null,
      }),
      governance: storedGovernance(rows[0]),
    };
  }

  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<Run | null> {
    return manager.findOneBy(Run, { id });
  }

  /** Another tenant's run is simply not there. */
  findInTenant(tenant: string, id: string): Promise<Run | null> {
    return this.dataSource.getRepository(Run).findOneBy({ id, tenant });
  }

  /**
   * Locks the run's row for the rest of the caller's transaction, before the transaction touches
   * any of its steps (the lock order of StepsRepository).
   */
  async lock(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`SELECT 1 FROM runs WHERE id = $1 FOR NO KEY UPDATE`, [id]);
  }

  /** The run, locked for the rest of the caller's transaction (an expiry, in a resume's order). */
  lockById(manager: EntityManager, id: string): Promise<Run | null> {
    return manager
      .getRepository(Run)
      .createQueryBuilder('r')
      .setLock('pessimistic_write')
      .where('r.id = :id', { id })
      .getOne();
  }

  /** The tenant's runs, newest first, a page after `cursor`. */
  async page(
    tenant: string,
    filter: { status?: RunStatus; agent?: string },
    limit: number,
    cursor?: string,
  ): Promise<RunPage> {
    const params: unknown[] = [tenant, limit + 1];
    const where = ['tenant = $1'];
    if (filter.status) where.push(`status = $${params.push(filter.status)}`);
    if (filter.agent) where.push(`agent = $${params.push(filter.agent)}`);
    if (cursor) {
      const [at, id] = decodeCursor<[string, string]>(cursor, 'tu');
      where.push(
        `(created_at, id) < ($${params.push(at)}::timestamptz, $${params.push(id)}::uuid)`,
      );
    }
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT *, ${cursorTime('created_at')} AS cursor_at FROM runs
        WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $2`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((row) => entityFromRow(this.dataSource, Run, row)),
      next_cursor:
        rows.length > limit ? encodeCursor([String(last.cursor_at), String(last.id)]) : null,
    };
  }

  /**
   * Sets the status (and the patch) if the run is in one of `from`. Leaving `running` banks the
   * active time; entering it starts the clock again. True when the run moved.
   */
  async setStatus(
    manager: EntityManager,
    runId: string,
    from: readonly RunStatus[],
    to: RunStatus,
    patch: RunPatch,
  ): Promise<boolean> {
    const params: unknown[] = [runId, from];
    const sets = statusSets(to, patch, params);
    const updated = updatedRows<{ id: string }>(
      await manager.query(
        `UPDATE runs SET ${sets.join(', ')} WHERE id = $1 AND status = ANY($2) RETURNING id`,
        params,
      ),
    );
    return updated.length > 0;
  }

  /**
   * Starts the oldest queued run waiting for this screen host, if the host is free and an admin
   * has not switched its agent off (computer use off, the agent removed, its kill switch, the
   * tenant's pause: such runs wait); its id, or null. The partial unique index on `lease_key` makes a second holder impossible, whoever else
   * tries at the same time.
   */
  async startNextQueued(leaseKey: string): Promise<string | null> {
    try {
      const rows = updatedRows<{ id: string }>(
        await this.dataSource.query(
          `UPDATE runs SET status = 'running', started_at = COALESCE(started_at, now()),
                active_since = clock_timestamp(), updated_at = now()
          WHERE id = (SELECT r.id FROM runs r ${GOVERNANCE_JOINS}
                       WHERE r.lease_key = $1 AND r.status = 'queued'
                         AND COALESCE(v.enabled, false) AND COALESCE(v.agent_configured, false)
                         AND NOT COALESCE(k.engaged, false) AND NOT COALESCE(p.paused, false)
                       ORDER BY r.created_at, r.id LIMIT 1 FOR UPDATE OF r SKIP LOCKED)
            AND status = 'queued'
            AND NOT EXISTS (SELECT 1 FROM runs WHERE lease_key = $1 AND status IN ('running', 'awaiting_approval'))
          RETURNING id`,
          [leaseKey],
        ),
      );
      return rows[0]?.id ?? null;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return null; // someone else holds the host
      throw error;
    }
  }

  /** Counts one more invalid action on a running run; the new count (0 when it is not running). */
  async countInvalidAction(manager: EntityManager, runId: string): Promise<number> {
    const rows = updatedRows<{ invalid_actions: number }>(
      await manager.query(
        `UPDATE runs SET invalid_actions = invalid_actions + 1, updated_at = now()
          WHERE id = $1 AND status = 'running' RETURNING invalid_actions`,
        [runId],
      ),
    );
    return rows[0]?.invalid_actions ?? 0;
  }

  /**
   * Counts a screen action after which the screen did not change (or resets the count), on a
   * running run: the streak and the run now, or null when it is not running. Bookkeeping, committed
   * without waiting for the disk: a count lost in a crash of PostgreSQL only starts again.
   */
  async recordScreenChange(
    runId: string,
    unchanged: boolean,
  ): Promise<(RunNow & { unchanged_streak: number }) | null> {
    const rows = updatedRows<RunNow & { unchanged_streak: number }>(
      await this.dataSource.query(
        `UPDATE runs SET unchanged_streak = CASE WHEN $2 THEN unchanged_streak + 1 ELSE 0 END, updated_at = now()
          WHERE id = $1 AND status = 'running' AND ${ASYNC_COMMIT}
          RETURNING unchanged_streak, status, step_count`,
        [runId, unchanged],
      ),
    );
    return rows[0] ?? null;
  }

  async now(runId: string): Promise<RunNow | null> {
    const rows = await this.dataSource.query<RunNow[]>(
      `SELECT status, step_count FROM runs WHERE id = $1`,
      [runId],
    );
    return rows[0] ?? null;
  }

  /** Keeps the run's volatile mask (learnt for its reads), while it is running. */
  async setVolatileMask(runId: string, mask: Buffer): Promise<void> {
    await this.dataSource.query(
      `UPDATE runs SET volatile_mask = $2, updated_at = now() WHERE id = $1 AND status = 'running'`,
      [runId, mask],
    );
  }

  /** Running runs with their current step's phase and lease, for the reconciler. */
  moving(): Promise<MovingRun[]> {
    return this.dataSource.query(
      `SELECT r.id, r.step_count, s.phase, s.lease_until
         FROM runs r LEFT JOIN steps s ON s.run_id = r.id AND s.n = r.step_count
        WHERE r.status = 'running'`,
    );
  }

  /** Runs that ended while their current step was sending (a cancel): its outcome is still to record. */
  endedWhileSending(): Promise<MovingRun[]> {
    return this.dataSource.query(
      `SELECT r.id, r.step_count, s.phase, s.lease_until
         FROM steps s JOIN runs r ON r.id = s.run_id AND r.step_count = s.n
        WHERE s.phase = 'sending' AND r.status <> 'running'`,
    );
  }

  /** The screen hosts some queued run waits for. */
  async queuedLeaseKeys(): Promise<string[]> {
    const rows = await this.dataSource.query<Array<{ lease_key: string }>>(
      `SELECT DISTINCT lease_key FROM runs WHERE status = 'queued'`,
    );
    return rows.map((r) => r.lease_key);
  }
}
