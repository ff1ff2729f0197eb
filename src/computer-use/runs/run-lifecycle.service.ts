import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { AuditService } from '../../audit/audit.service';
import { Notifications } from '../../notifications/notifications.service';
import { runEnded } from '../../notifications/notify-facts';
import { StepQueue } from '../../queue/step-queue';
import { Run } from './run.entity';
import { ACTIVE, canMove, EndReason, endStatusOf, RunStatus } from './run-status';
import { type HeldRun, type Resumed, RunResumeRepository } from './run-resume.repository';
import type { RunPatch } from './run-status-sets';
import { RunsRepository } from './runs.repository';
import { canMoveStep } from './step-phase';
import { StepsRepository } from './steps.repository';

/**
 * Every change of a run's status: checked against the state machine (run-status.ts) and applied
 * with `UPDATE … WHERE status IN (<what the caller saw>)`, so of two workers only one wins.
 * Active time is counted too: it runs only while the status is `running`.
 */
@Injectable()
export class RunLifecycle {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly runs: RunsRepository,
    private readonly resumes: RunResumeRepository,
    private readonly steps: StepsRepository,
    private readonly approvals: ApprovalsRepository,
    private readonly audit: AuditService,
    private readonly queue: StepQueue,
    private readonly notifications: Notifications,
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
    if (!(await this.runs.setStatus(manager, runId, allowed, to, patch))) return null;
    return this.runs.findById(runId, manager);
  }

  /**
   * The run with the approval it waits for, its row locked for the rest of the caller's transaction:
   * what a resume checks before it spends the approval.
   */
  heldRun(manager: EntityManager, tenant: string, id: string): Promise<HeldRun | null> {
    return this.resumes.lockHeld(manager, tenant, id);
  }

  /**
   * A resume, in the caller's transaction: the approval spent (ApprovalsRepository.spend), then in
   * one statement its step held → approved and the run awaiting_approval → running; each only if
   * the one before changed. The caller rolls back unless all three did.
   */
  async resume(
    manager: EntityManager,
    runId: string,
    approvalId: string,
    spentBy: string,
  ): Promise<Resumed> {
    if (!canMove('awaiting_approval', 'running') || !canMoveStep('held', 'approved')) {
      throw new Error(
        'a resume moves a run awaiting_approval → running and its step held → approved',
      );
    }
    const stepId = await this.approvals.spend(manager, runId, approvalId, spentBy, new Date());
    if (stepId === null) return { spent: false, stepApproved: false, running: false };
    return { spent: true, ...(await this.resumes.resumeSpent(manager, runId, stepId)) };
  }

  /**
   * Ends a run with its reason: status, time, the audit event, a waiting approval closed, its
   * unfinished steps ended (but one that is sending), and the screen host handed to the next
   * queued run. Returns null when the run had already ended.
   * With a caller's `manager`, the caller calls `afterEnd` once its transaction committed.
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
      await this.approvals.expireOpenOfRun(manager, runId, `run ended: ${reason}`);
      await this.steps.closeUnfinished(manager, runId, reason);
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
    if (run && !options.manager) await this.afterEnd(run);
    return run;
  }

  /**
   * What follows a run's end once it is committed: the next queued run for its screen host starts,
   * and the agent's channels hear of the end (they only get it queued: nothing waits on them).
   */
  async afterEnd(run: Run): Promise<void> {
    await this.promote(run.leaseKey);
    await this.notifications.announce(run.tenant, run.agent, runEnded(run));
  }

  /** Starts the oldest queued run waiting for this screen host, if the host is free. */
  async promote(leaseKey: string): Promise<Run | null> {
    const id = await this.runs.startNextQueued(leaseKey);
    if (!id) return null;
    await this.queue.step(id, 1);
    return this.runs.findById(id);
  }
}
