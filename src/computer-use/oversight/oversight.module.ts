import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { SettingsModule } from '../settings/settings.module';
import { ApprovalViewsRepository } from './approval-views.repository';
import { DecisionOversight } from './decision-oversight.service';
import { DecisionRecordsRepository } from './decision-records.repository';
import { ApprovalViewsController, OversightController } from './oversight.controller';
import { OversightService } from './oversight.service';

/**
 * Oversight (docs/approver-guide.md): page views the console reports, decisions recorded with
 * them, and the report. The approvals API records each decision through DecisionOversight.
 */
@Module({
  imports: [ApprovalsModule, SettingsModule],
  controllers: [ApprovalViewsController, OversightController],
  providers: [
    ApprovalViewsRepository,
    DecisionRecordsRepository,
    DecisionOversight,
    OversightService,
  ],
  exports: [DecisionOversight],
})
export class OversightModule {}
