import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { DeliverJob, NOTIFY_QUEUE } from '../queue/notify-queue';
import { DeliveryRetry, DeliverySending } from './delivery-sending.service';

/** Deliveries at once per worker: they mostly wait on receivers, some of which hang until the timeout. */
const CONCURRENCY = 20;

/** Hands each notification job to DeliverySending, telling it whether this is the last try. */
@Processor(NOTIFY_QUEUE)
export class DeliveryProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(DeliveryProcessor.name);

  constructor(private readonly sending: DeliverySending) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = CONCURRENCY;
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn({ err: error }, 'the notification queue reported an error');
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    if (error instanceof DeliveryRetry || error.name === 'DeliveryRetry') return;
    this.logger.error({ err: error, job: job?.id }, 'a notification job failed');
  }

  async process(job: Job<DeliverJob>): Promise<void> {
    const attempts = job.opts.attempts ?? 1;
    await this.sending.deliver(job.data.deliveryId, job.attemptsMade + 1 >= attempts);
  }
}
