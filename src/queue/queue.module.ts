import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { NOTIFY_QUEUE, NotifyQueue } from './notify-queue';
import { JOB_DEFAULTS, STEP_QUEUE, StepQueue } from './step-queue';

/**
 * BullMQ's connection, the step queue and the notification queue: the API puts work on them (a run
 * started, a write resumed, a decision announced), the worker takes work from them. Redis holds nothing PostgreSQL cannot rebuild.
 */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        connection: { url: config.REDIS_URL, maxRetriesPerRequest: null },
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
