import { Module } from '@nestjs/common';
import { RunStateModule } from '../runs/run-state.module';
import { OversightModule } from '../oversight/oversight.module';
import { ApprovalsController } from './approvals.controller';
import { ApprovalsService } from './approvals.service';
import { TestApprovalDecisions } from './test-approvals.service';

/** The approvals API: waiting actions and the decisions on them. */
@Module({
  imports: [RunStateModule, OversightModule],
  controllers: [ApprovalsController],
  providers: [ApprovalsService, TestApprovalDecisions],
  exports: [ApprovalsService],
})
export class ApprovalsApiModule {}
