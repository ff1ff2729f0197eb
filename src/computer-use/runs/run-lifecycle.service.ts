import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { Approval } from '../../approvals/approval.entity';
import { AuditService } from '../../audit/audit.service';
import { updatedRows } from '../../database/sql';
import { StepQueue } from '../engine/step-queue';
import { Run } from './run.entity';
import { ACTIVE, canMove, EndReason, endStatusOf, RunStatus } from './run-status';

type RunPatch = Partial<
  Pick<
    Run,
    | 'endReason'
    | 'summary'
    | 'startedAt'
    | 'endedAt'
    | 'pendingApproval'
    | 'invalidActions'
    | 'unchangedStreak'
    | 'stepCount'
    | 'plannerState'
  >
>;

const COLUMN: Record<keyof RunPatch, string> = {
  endReason: 'end_reason',
  summary: 'summary',
  startedAt: 'started_at',
  endedAt: 'ended_at',
  pendingApproval: 'pending_approval',
  invalidActions: 'invalid_actions',
  unchangedStreak: 'unchanged_streak',
  stepCount: 'step_count',
  plannerState: 'planner_state',
};

/**
 * Every change of a run's status: checked against the state machine (run-status.ts) and applied
 * with `UPDATE … WHERE status IN (<what the caller saw>)`, so of two workers only one wins.
 * Active time is counted here too: it runs only while the status is `running`.
 */
@Injectable()
export class RunLifecycle {
  private readonly logger = new Logger(RunLifecycle.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly queue: StepQueue,
  ) {}

  async transition(
    manager: EntityManager,
    runId: string,
    from: RunStatus | readonly RunStatus[],
    to: RunStatus,
    patch: RunPatch = {},
  ): Promise<Run | null> {
    const froms = (Array.isArray(from) ? from : [from]) as RunStatus[];
    const allowed = froms.filter((f) => canMove(f, to));
    if (allowed.length === 0) throw new Error(`no transition from ${froms.join('|')} to ${to}`);
    const params: unknown[] = [runId, allowed, to];
    const sets = [`status = $3`, `updated_at = now()`];
    // Leaving `running` banks the active time; entering it starts the clock again.
    sets.push(
      `active_seconds = active_seconds + CASE WHEN active_since IS NULL THEN 0 ELSE EXTRACT(EPOCH FROM clock_timestamp() - active_since) END`,
      to === 'running' ? `active_since = clock_timestamp()` : `active_since = NULL`,
    );
    for (const [key, value] of Object.entries(patch)) {
      params.push(key === 'plannerState' ? JSON.stringify(value ?? null) : value);
      sets.push(`${COLUMN[key as keyof RunPatch]} = $${params.length}`);
    }
    const updated = updatedRows<{ id: string }>(
      await manager.query(
        `UPDATE runs SET ${sets.join(', ')} WHERE id = $1 AND status = ANY($2) RETURNING id`,
        params,
      ),
    );
    if (updated.length === 0) return null;
    return manager.findOneByOrFail(Run, { id: runId });
  }

  /**
   * Ends a run with its reason: status, time, the audit event, a waiting approval closed, and the
   * screen host handed to the next queued run. Returns null when the run had already ended.
   */
  async end(
    runId: string,
    reason: EndReason,
    summary: string | null,
    actor: string,
    options: { step?: number | null; manager?: EntityManager } = {},
  ): Promise<Run | null> {
    const work = async (manager: EntityManager) => {
      const run = await this.transition(manager, runId, ACTIVE, endStatusOf(reason), {
        endReason: reason,
        summary,
        endedAt: new Date(),
        pendingApproval: null,
      });
      if (!run) return null;
      await manager.update(
        Approval,
        { runId, status: In(['pending', 'approved']) },
        { status: 'expired', decidedAt: new Date(), comment: `run ended: ${reason}` },
      );
      await this.audit.record(
        {
          tenant: run.tenant,
          type: 'computer_use.end',
          actor,
          runId,
          step: options.step ?? null,
          details: {
            agent: run.agent,
            status: run.status,
            end_reason: reason,
            summary,
            steps: run.stepCount,
            active_seconds: Math.round(run.activeSeconds * 1000) / 1000,
          },
        },
        manager,
      );
      return run;
    };
    const run = options.manager
      ? await work(options.manager)
      : await this.dataSource.transaction(work);
    // The next queued run can only start once this transaction committed the end.
    if (run && !options.manager) await this.promote(run.leaseKey);
    return run;
  }

  /**
   * Starts the oldest queued run waiting for this screen host, if the host is free. The partial
   * unique index on `lease_key` makes a second holder impossible, whoever else tries at the same time.
   */
  async promote(leaseKey: string): Promise<Run | null> {
    let id: string | undefined;
    try {
      const rows = updatedRows<{ id: string }>(
        await this.dataSource.query(
          `UPDATE runs SET status = 'running', started_at = COALESCE(started_at, now()),
                active_since = clock_timestamp(), updated_at = now()
          WHERE id = (SELECT id FROM runs WHERE lease_key = $1 AND status = 'queued'
                      ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
            AND status = 'queued'
            AND NOT EXISTS (SELECT 1 FROM runs WHERE lease_key = $1 AND status IN ('running', 'awaiting_approval'))
          RETURNING id`,
          [leaseKey],
        ),
      );
      id = rows[0]?.id;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return null; // someone else holds the host
      throw error;
    }
    if (!id) return null;
    await this.queue.step(id, 1);
    return this.dataSource.getRepository(Run).findOneByOrFail({ id });
  }
}
