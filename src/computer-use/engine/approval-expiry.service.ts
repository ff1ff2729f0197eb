import { Injectable } from '@nestjs/common';
import { ApprovalsRepository } from '../../approvals/approvals.repository';
import { StepQueue } from '../../queue/step-queue';
import { RunLifecycle } from '../runs/run-lifecycle.service';
import { StepsRepository } from '../runs/steps.repository';
import { ENGINE_ACTOR } from './run-ending.service';

/** An approval's time is up (DESIGN §6): the run stops `approval_expired`, nothing is sent. */
@Injectable()
export class ApprovalExpiry {
  constructor(
    private readonly approvals: ApprovalsRepository,
    private readonly steps: StepsRepository,
    private readonly lifecycle: RunLifecycle,
    private readonly queue: StepQueue,
  ) {}

  async expire(approvalId: string): Promise<void> {
    const approval = await this.approvals.findById(approvalId);
    if (!approval || !['pending', 'approved'].includes(approval.status)) return;
    if (approval.expiresAt.getTime() > Date.now()) {
      await this.queue.expire(approval.id, approval.expiresAt); // not yet: armed again
      return;
    }
    await this.steps.moveById(approval.stepId, 'held', 'done', {
      error: 'the approval expired before anyone resumed the run',
      endedAt: new Date(),
    });
    await this.lifecycle.end(
      approval.runId,
      'approval_expired',
      `the held write of step ${approval.step} was not approved and resumed in time`,
      ENGINE_ACTOR,
      { step: approval.step },
    );
  }
}
