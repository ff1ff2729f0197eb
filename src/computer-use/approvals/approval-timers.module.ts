import { Module } from '@nestjs/common';
import { NotificationsModule } from '../../notifications/notifications.module';
import { QueueModule } from '../../queue/queue.module';
import { ApprovalNotices } from './approval-notices.service';
import { ApprovalTimers } from './approval-timers.service';
import { ApprovalsModule } from './approvals.module';

/**
 * A pending approval's reminder and escalation (docs/security.md), and what people are told of them. Each
 * is a delayed job on the step queue, which only the worker takes: the engine imports this module
 * and its processor calls ApprovalTimers, so the API never loads it. An approval's expiry ends its
 * run, and stays with the engine (engine/approval-expiry.service.ts).
 */
@Module({
  imports: [ApprovalsModule, QueueModule, NotificationsModule],
  providers: [ApprovalTimers, ApprovalNotices],
  exports: [ApprovalTimers],
})
export class ApprovalTimersModule {}
