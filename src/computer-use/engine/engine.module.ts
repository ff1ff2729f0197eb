import { RemoteModule } from '../remote/remote.module';
import { Module } from '@nestjs/common';
import { ApprovalTimersModule } from '../approvals/approval-timers.module';
import { NotificationsWorkerModule } from '../../notifications/notifications-worker.module';
import { SecretsModule } from '../../secrets/secrets.module';
import { CatalogModule } from '../catalog/catalog.module';
import { PlanningModule } from '../planning/planning.module';
import { RunStateModule } from '../runs/run-state.module';
import { HostClientModule } from '../host-client/host-client.module';
import { OcrModule } from '../ocr/ocr.module';
import { ScreensModule } from '../screens/screens.module';
import { SettingsModule } from '../settings/settings.module';
import { ApprovalExpiry } from './approval-expiry.service';
import { FrameGuard } from './frame-guard.service';
import { Reconciler } from './reconciler.service';
import { RunEnding } from './run-ending.service';
import { ScreenSampling } from './screen-sampling.service';
import { SendRecording } from './send-recording.service';
import { StepEngine } from './step-engine.service';
import { StepHolding } from './step-holding.service';
import { StepJudging } from './step-judging.service';
import { StepLease } from './step-lease.service';
import { StepObserving } from './step-observing.service';
import { StepPlanning } from './step-planning.service';
import { StepSending } from './step-sending.service';
import { StepSettling } from './step-settling.service';
import { StepProcessor } from './step.processor';
import { WriteReceipts } from './write-receipts.service';

/** The worker's part: the step processor, the engine and its stages, the reconciler. */
@Module({
  imports: [
    RunStateModule,
    ScreensModule,
    HostClientModule,
    OcrModule,
    SettingsModule,
    PlanningModule,
    CatalogModule,
    RemoteModule,
    SecretsModule,
    NotificationsWorkerModule,
    ApprovalTimersModule,
  ],
  providers: [
    StepEngine,
    StepLease,
    RunEnding,
    StepObserving,
    StepPlanning,
    StepJudging,
    StepHolding,
    StepSending,
    SendRecording,
    FrameGuard,
    ScreenSampling,
    StepSettling,
    WriteReceipts,
    ApprovalExpiry,
    StepProcessor,
    Reconciler,
  ],
})
export class EngineModule {}
