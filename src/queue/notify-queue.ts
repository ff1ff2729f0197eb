import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '../config/app-config';

export const NOTIFY_QUEUE = 'warden-notify';

export const NOTIFY_JOB = 'deliver';

export interface DeliverJob {
  deliveryId: string;
}

/**
 * Puts notification deliveries on their own queue, so a slow receiver never holds up a step. Each
 * delivery is one job (its id is the delivery's), tried NOTIFY_ATTEMPTS times with exponential
 * backoff from NOTIFY_BACKOFF_MS.
 */
@Injectable()
export class NotifyQueue {
  constructor(
    @InjectQueue(NOTIFY_QUEUE) readonly queue: Queue,
    private readonly config: AppConfig,
  ) {}

  async deliver(deliveryId: string): Promise<void> {
    await this.queue.add(NOTIFY_JOB, { deliveryId } satisfies DeliverJob, {
      jobId: deliveryId,
      attempts: this.config.NOTIFY_ATTEMPTS,
      backoff: { type: 'exponential', delay: this.config.NOTIFY_BACKOFF_MS },
      removeOnComplete: true,
      removeOnFail: true,
    });
  }
}
