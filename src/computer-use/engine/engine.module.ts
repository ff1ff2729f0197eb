import { Module, OnApplicationShutdown } from '@nestjs/common';
import { RunsModule } from '../runs/runs.module';
import { OcrLabelReader } from '../screens/ocr-label-reader';
import { ScreensModule } from '../screens/screens.module';
import { SettingsModule } from '../settings/settings.module';
import { PlanningModule } from '../planning/planning.module';
import { Reconciler } from './reconciler.service';
import { StepEngine } from './step-engine.service';
import { StepProcessor } from './step.processor';

class OcrLifetime implements OnApplicationShutdown {
  constructor(private readonly ocr: OcrLabelReader) {}
  async onApplicationShutdown(): Promise<void> {
    await this.ocr.close();
  }
}

/** The worker's part: the step processor, the engine it calls, the reconciler. */
@Module({
  imports: [RunsModule, ScreensModule, SettingsModule, PlanningModule],
  providers: [
    StepEngine,
    StepProcessor,
    Reconciler,
    { provide: OcrLabelReader, useFactory: () => new OcrLabelReader() },
    {
      provide: OcrLifetime,
      inject: [OcrLabelReader],
      useFactory: (ocr: OcrLabelReader) => new OcrLifetime(ocr),
    },
  ],
})
export class EngineModule {}
