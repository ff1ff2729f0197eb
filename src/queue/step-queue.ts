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
  /** A pending approval's reminder is due (docs/security.md). */
  remind: 'remind',
  /** A pending approval is due to be handed to its agent's escalate_to (docs/security.md). */
  escalate: 'escalate',
} as const;

export interface StepJob {
  runId: string;
  n: number;
}

/** The data of an expire, remind or escalate job. */
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

  /**
   * `after` names a worker's lease that ran out: the dead worker's job may still count as active in
   * BullMQ for a while, so the job that takes the step over needs an id of its own (one per lapsed
   * lease, so reconciling twice still adds it once). The step's lease keeps it to one worker.
   */
  async step(runId: string, n: number, after?: Date): Promise<void> {
    const jobId = after ? `${runId}.${n}.after.${after.getTime()}` : `${runId}.${n}`;
    await this.queue.add(JOB.step, { runId, n } satisfies StepJob, { jobId });
  }

  /**
   * Step `n` again, at `at` or now, for a step waiting on a remote planner (docs/models.md): its answer
   * came, or its deadline or its workers' heartbeat is due to be looked at. `key` names the job
   * (one per answer, one per check), so it never meets the step's own job id.
   */
  async stepLater(runId: string, n: number, key: string, at?: Date): Promise<void> {
    await this.queue.add(JOB.step, { runId, n } satisfies StepJob, {
      jobId: `${runId}.${n}.${key}`,
      delay: at ? Math.max(0, at.getTime() - Date.now()) : 0,
    });
  }

  async approved(runId: string, n: number, after?: Date): Promise<string> {
    const jobId = after
      ? `${runId}.${n}.approved.after.${after.getTime()}`
      : `${runId}.${n}.approved`;
    await this.queue.add(JOB.approved, { runId, n } satisfies StepJob, { jobId, priority: 1 });
    return jobId;
  }

  async expire(approvalId: string, at: Date): Promise<void> {
    await this.queue.add(JOB.expire, { approvalId } satisfies ExpireJob, {
      jobId: `expire.${approvalId}`,
      delay: Math.max(0, at.getTime() - Date.now()),
    });
  }

  /** The approval's reminder, delayed until `at`; like `expire`, one job per approval. */
  async remind(approvalId: string, at: Date): Promise<void> {
    await this.queue.add(JOB.remind, { approvalId } satisfies ExpireJob, {
      jobId: `remind.${approvalId}`,
      delay: Math.max(0, at.getTime() - Date.now()),
    });
  }

  /** The approval's escalation, delayed until `at`. */
  async escalate(approvalId: string, at: Date): Promise<void> {
    await this.queue.add(JOB.escalate, { approvalId } satisfies ExpireJob, {
      jobId: `escalate.${approvalId}`,
      delay: Math.max(0, at.getTime() - Date.now()),
    });
  }
}
