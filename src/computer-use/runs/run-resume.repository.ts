import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { ApprovalStatus } from '../approvals/approval.entity';
import type { RunStatus } from './run-status';
import { statusSets } from './run-status-sets';

/** A run as a resume reads it (its row locked), with the approval it waits for. */
export interface HeldRun {
  id: string;
  status: RunStatus;
  pendingApproval: string | null;
  /** The approval named by `pending_approval`, as it was when the run's lock was taken. */
  approval: {
    id: string;
    status: ApprovalStatus;
    step: number;
    stepId: string;
    expiresAt: Date;
  } | null;
}

/** What a resume changed: each part only if the one before it did. */
export interface Resumed {
  /** The approval went approved → spent (of concurrent resumes, only one sees this). */
  spent: boolean;
  /** Its step went held → approved. */
  stepApproved: boolean;
  /** The run went awaiting_approval → running. */
  running: boolean;
}

/**
 * A resume's statements on the runs table: the held run read and locked with its approval, and the
 * step and the run moved on once the approval is spent, each in the resume's transaction.
 */
@Injectable()
export class RunResumeRepository {
  /**
   * The run with the approval it waits for, the run's row locked for the rest of the caller's
   * transaction (a resume): one statement, hand-written, as a burst of resumes shares the pool.
   */
  async lockHeld(manager: EntityManager, tenant: string, id: string): Promise<HeldRun | null> {
    const rows: Array<{
      id: string;
      status: RunStatus;
      pending_approval: string | null;
      approval_id: string | null;
      approval_status: ApprovalStatus | null;
      step: number | null;
      step_id: string | null;
      expires_at: Date | null;
    }> = await manager.query(
      `SELECT r.id, r.status, r.pending_approval, a.id AS approval_id,
              a.status AS approval_status, a.step, a.step_id, a.expires_at
         FROM runs r LEFT JOIN approvals a ON a.id = r.pending_approval
        WHERE r.id = $1 AND r.tenant = $2
        FOR UPDATE OF r`,
      [id, tenant],
    );
    const row = rows[0];
    if (!row) return null;
    const approval =
      row.approval_id === null
        ? null
        : {
            id: row.approval_id,
            status: row.approval_status as ApprovalStatus,
            step: row.step as number,
            stepId: row.step_id as string,
            expiresAt: row.expires_at as Date,
          };
    return { id: row.id, status: row.status, pendingApproval: row.pending_approval, approval };
  }

  /**
   * The rest of a resume once its approval is spent (ApprovalsRepository.spend, in the same
   * transaction), in one statement: the approval's step moves held → approved and the run
   * awaiting_approval → running, the run only if the step moved. The caller rolls back unless both
   * did.
   */
  async resumeSpent(
    manager: EntityManager,
    runId: string,
    stepId: string,
  ): Promise<Omit<Resumed, 'spent'>> {
    const params: unknown[] = [runId, stepId];
    const sets = statusSets('running', { pendingApproval: null }, params);
    const rows: Array<{ step_approved: boolean; running: boolean }> = await manager.query(
      `WITH approved AS (
         UPDATE steps SET phase = 'approved'
          WHERE id = $2 AND phase = 'held'
          RETURNING id),
       running AS (
         UPDATE runs SET ${sets.join(', ')}
          WHERE id = $1 AND status = 'awaiting_approval' AND EXISTS (SELECT 1 FROM approved)
          RETURNING id)
       SELECT EXISTS (SELECT 1 FROM approved) AS step_approved,
              EXISTS (SELECT 1 FROM running) AS running`,
      params,
    );
    const row = rows[0];
    return { stepApproved: row.step_approved, running: row.running };
  }
}
