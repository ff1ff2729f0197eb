import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { NOTIFY_QUEUE, NotifyQueue } from './notify-queue';
import { JOB_DEFAULTS, STEP_QUEUE, StepQueue } from './step-queue';

/**
 * How long BullMQ's connections wait before trying Redis again, by attempt: 100 ms more each
 * time, at most 1 s. BullMQ's own default grows as e^attempt ms, from 1 s to 20 s, so after an
 * outage of ten seconds or more the workers and the API's queue went on waiting 8–20 s after
 * Redis was back (measured by test/ops/scale-out.e2e-spec.ts); a reconnect attempt to a Redis that is
 * down costs one refused TCP connection.
 */
export function reconnectDelay(attempt: number): number {
  return Math.min(attempt * 100, 1000);
}

/**
 * BullMQ's connection, the step queue and the notification queue: the API puts work on them (a run
 * started, a write resumed, a decision announced), the worker takes work from them. Redis holds nothing PostgreSQL cannot rebuild.
 */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        connection: {
          url: config.REDIS_URL,
          maxRetriesPerRequest: null,
          retryStrategy: reconnectDelay,
        },
        prefix: config.QUEUE_PREFIX,
        defaultJobOptions: JOB_DEFAULTS,
      }),
    }),
    BullModule.registerQueue({ name: STEP_QUEUE }, { name: NOTIFY_QUEUE }),
  ],
  providers: [StepQueue, NotifyQueue],
  exports: [StepQueue, NotifyQueue],
})
export class QueueModule {}
