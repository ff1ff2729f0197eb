import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';

export const STEP_QUEUE = 'warden-steps';

export const JOB = {
  /** Run step `n` of a run (observe, plan, check, send or hold). */
  step: 'step',
  /** Carry out step `n`'s approved write: compare the screen, then send it once. */
  approved: 'approved',
  /** An approval's time is up. */
  expire: 'expire',
} as const;

export interface StepJob {
  runId: string;
  n: number;
}

export interface ExpireJob {
  approvalId: string;
}

/** Defaults for every job, set once: retried with backoff when a worker fails unexpectedly. */
export const JOB_DEFAULTS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: true,
  // A step that failed every attempt is retried by the reconciler later; its job must not block that.
  removeOnFail: true,
};

/**
 * Puts step work on the queue. Job ids deduplicate: the same step is never queued twice at once,
 * so the reconciler can re-add whatever PostgreSQL says should be moving without harm.
 */
@Injectable()
export class StepQueue {
  constructor(@InjectQueue(STEP_QUEUE) readonly queue: Queue) {}

  async step(runId: string, n: number): Promise<void> {
    await this.queue.add(JOB.step, { runId, n } satisfies StepJob, { jobId: `${runId}.${n}` });
  }

  async approved(runId: string, n: number): Promise<string> {
    const jobId = `${runId}.${n}.approved`;
    await this.queue.add(JOB.approved, { runId, n } satisfies StepJob, { jobId, priority: 1 });
    return jobId;
  }

  async expire(approvalId: string, at: Date): Promise<void> {
    await this.queue.add(JOB.expire, { approvalId } satisfies ExpireJob, {
      jobId: `expire.${approvalId}`,
      delay: Math.max(0, at.getTime() - Date.now()),
    });
  }
}
