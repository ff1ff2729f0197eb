import { Module } from '@nestjs/common';
import { RunStateModule } from '../computer-use/runs/run-state.module';
import { ApprovalsController } from './approvals.controller';
import { ApprovalsService } from './approvals.service';

/** The approvals API: waiting actions and the decisions on them. */
@Module({
  imports: [RunStateModule],
  controllers: [ApprovalsController],
  providers: [ApprovalsService],
})
export class ApprovalsApiModule {}
