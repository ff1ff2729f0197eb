import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { JOB_DEFAULTS, STEP_QUEUE, StepQueue } from './step-queue';

/**
 * BullMQ's connection and the step queue: the API puts work on it (a run started, a write
 * resumed), the worker takes work from it. Redis holds nothing PostgreSQL cannot rebuild.
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
    BullModule.registerQueue({ name: STEP_QUEUE }),
  ],
  providers: [StepQueue],
  exports: [StepQueue],
})
export class QueueModule {}
