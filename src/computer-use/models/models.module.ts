import { Module } from '@nestjs/common';
import { ScreensModule } from '../screens/screens.module';
import { SecretsModule } from '../../secrets/secrets.module';
import { BatchTurns } from './batch-turns.service';
import { ModelCalls } from './model-calls.service';
import { ModelImages } from './model-images';
import { ModelUsageRepository } from './model-usage.repository';
import { ModelsService } from './models.service';
import { UsageService } from './usage.service';

/** The governed model call (docs/models.md): providers, budget, transcripts as they are recorded. */
@Module({
  imports: [ScreensModule, SecretsModule],
  providers: [
    ModelsService,
    ModelCalls,
    BatchTurns,
    ModelImages,
    UsageService,
    ModelUsageRepository,
  ],
  exports: [ModelsService, UsageService, ModelUsageRepository],
})
export class ModelsModule {}
