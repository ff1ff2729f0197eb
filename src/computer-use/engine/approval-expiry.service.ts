import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { StepQueue } from '../../queue/step-queue';
import { RunLifecycle } from '../runs/run-lifecycle.service';
import { RunsRepository } from '../runs/runs.repository';
import { StepsRepository } from '../runs/steps.repository';
import { WARDEN_ACTOR } from '../../audit/warden-actor';

/**
 * An approval's time is up (docs/security.md): the run stops `approval_expired`, nothing is sent. The
 * approval is read inside the transaction that ends the run, after the run's row lock (the order a
 * resume takes them in), so an expiry and a resume never both win: a resume that spent the approval
 * first leaves the expiry nothing to do, an expiry first leaves the resume a 409.
 */
@Injectable()
export class ApprovalExpiry {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly approvals: ApprovalsRepository,
    private readonly runs: RunsRepository,
    private readonly steps: StepsRepository,
    private readonly lifecycle: RunLifecycle,
    private readonly queue: StepQueue,
  ) {}

  async expire(approvalId: string): Promise<void> {
    const seen = await this.approvals.findById(approvalId);
    if (!seen || !isOpen(seen.status)) return;
    if (seen.expiresAt.getTime() > Date.now()) {
      await this.queue.expire(seen.id, seen.expiresAt); // not yet: armed again
      return;
    }
    const ended = await this.dataSource.transaction(async (manager) => {
      await this.runs.lockById(manager, seen.runId);
      const approval = await this.approvals.lockById(manager, approvalId);
      if (!approval || !isOpen(approval.status)) return null;
      await this.steps.moveById(
        approval.stepId,
        'held',
        'done',
        { error: 'the approval expired before anyone resumed the run', endedAt: new Date() },
        manager,
      );
      return this.lifecycle.end(
        approval.runId,
        'approval_expired',
        `the held write of step ${approval.step} was not approved and resumed in time`,
        WARDEN_ACTOR,
        { step: approval.step, manager },
      );
    });
    if (ended) await this.lifecycle.afterEnd(ended);
  }
}

function isOpen(status: string): boolean {
  return status === 'pending' || status === 'approved';
}
