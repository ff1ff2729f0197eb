import { Module } from '@nestjs/common';
import { ApprovalsRepository } from '../../approvals/approvals.repository';
import { NotificationsModule } from '../../notifications/notifications.module';
import { QueueModule } from '../../queue/queue.module';
import { SettingsModule } from '../settings/settings.module';
import { RunLifecycle } from './run-lifecycle.service';
import { RunsRepository } from './runs.repository';
import { StepsRepository } from './steps.repository';

/**
 * Runs, their steps and the approvals of their held writes as stored, and the run state machine
 * that moves them: what the API and the worker share. No controllers, so the worker loads none.
 */
@Module({
  imports: [QueueModule, SettingsModule, NotificationsModule],
  providers: [RunLifecycle, RunsRepository, StepsRepository, ApprovalsRepository],
  exports: [
    RunLifecycle,
    RunsRepository,
    StepsRepository,
    ApprovalsRepository,
    QueueModule,
    NotificationsModule,
  ],
})
export class RunStateModule {}
