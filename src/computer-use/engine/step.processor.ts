import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { ApprovalTimers } from '../approvals/approval-timers.service';
import { AppConfig } from '../../config/app-config';
import { ExpireJob, JOB, STEP_QUEUE, StepJob } from '../../queue/step-queue';
import { ApprovalExpiry } from './approval-expiry.service';
import { StepEngine } from './step-engine.service';

/**
 * Hands each job to the step engine (an expiry to ApprovalExpiry, a reminder or escalation to
 * ApprovalTimers); they hold every rule.
 */
@Processor(STEP_QUEUE)
export class StepProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(StepProcessor.name);

  constructor(
    private readonly engine: StepEngine,
    private readonly expiry: ApprovalExpiry,
    private readonly timers: ApprovalTimers,
    private readonly config: AppConfig,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.WORKER_CONCURRENCY;
  }

  /** Redis trouble (a lost lock, a flushed key) is logged; PostgreSQL and the reconciler carry on. */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn({ err: error }, 'the step queue reported an error');
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    this.logger.error(
      { err: error, job: job?.id, attempts: job?.attemptsMade },
      'a step job failed',
    );
  }

  async process(job: Job): Promise<void> {
    switch (job.name) {
      case JOB.step: {
        const { runId, n } = job.data as StepJob;
        return this.engine.runStep(runId, n);
      }
      case JOB.approved: {
        const { runId, n } = job.data as StepJob;
        return this.engine.runApproved(runId, n);
      }
      case JOB.expire:
        return this.expiry.expire((job.data as ExpireJob).approvalId);
      case JOB.remind:
        return this.timers.remind((job.data as ExpireJob).approvalId);
      case JOB.escalate:
        return this.timers.escalate((job.data as ExpireJob).approvalId);
    }
  }
}
