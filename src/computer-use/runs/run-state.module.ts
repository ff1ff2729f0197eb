import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { NotificationsModule } from '../../notifications/notifications.module';
import { QueueModule } from '../../queue/queue.module';
import { SettingsModule } from '../settings/settings.module';
import { RunLifecycle } from './run-lifecycle.service';
import { RunResumeRepository } from './run-resume.repository';
import { RunsRepository } from './runs.repository';
import { SendGateRepository } from './send-gate.repository';
import { StepReceiptsRepository } from './step-receipts.repository';
import { StepsRepository } from './steps.repository';

/**
 * Runs, their steps and the approvals of their held writes as stored, and the run state machine
 * that moves them: what the API and the worker share. No controllers, so the worker loads none.
 */
@Module({
  imports: [QueueModule, SettingsModule, NotificationsModule, ApprovalsModule],
  providers: [
    RunLifecycle,
    RunsRepository,
    RunResumeRepository,
    StepsRepository,
    SendGateRepository,
    StepReceiptsRepository,
  ],
  exports: [
    RunLifecycle,
    RunsRepository,
    RunResumeRepository,
    StepsRepository,
    SendGateRepository,
    StepReceiptsRepository,
    ApprovalsModule,
    QueueModule,
    NotificationsModule,
  ],
})
export class RunStateModule {}
