import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { JOB_DEFAULTS, STEP_QUEUE, StepQueue } from '../engine/step-queue';
import { PlanningModule } from '../planning/planning.module';
import { ScreensModule } from '../screens/screens.module';
import { SettingsModule } from '../settings/settings.module';
import { RunLifecycle } from './run-lifecycle.service';
import { RunsController } from './runs.controller';
import { RunsService } from './runs.service';

/** Runs and their steps: the API, the state machine (RunLifecycle), and the step queue both sides use. */
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
    SettingsModule,
    PlanningModule,
    ScreensModule,
  ],
  controllers: [RunsController],
  providers: [RunsService, RunLifecycle, StepQueue],
  exports: [RunLifecycle, StepQueue, RunsService],
})
export class RunsModule {}
