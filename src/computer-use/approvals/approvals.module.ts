import { Module } from '@nestjs/common';
import { ApprovalsRepository } from './approvals.repository';
import { TestApprovalsRepository } from './test-approvals.repository';

/**
 * Approvals as stored: the waiting actions of held writes and the decisions on them, and the
 * seeded tests that stand among them in the inbox. It imports
 * nothing of runs; the run state machine (computer-use/runs) and the approvals API
 * (approvals-api/) build on it. Its timers are ApprovalTimersModule, which only the worker loads.
 */
@Module({
  providers: [ApprovalsRepository, TestApprovalsRepository],
  exports: [ApprovalsRepository, TestApprovalsRepository],
})
export class ApprovalsModule {}
