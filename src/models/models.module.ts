import { Module } from '@nestjs/common';
import { ScreensModule } from '../computer-use/screens/screens.module';
import { ModelsService } from './models.service';
import { TranscriptsController } from './transcripts.controller';
import { TranscriptsService } from './transcripts.service';
import { UsageService } from './usage.service';

/** The governed model call (DESIGN §8): providers, budget, transcripts and their route. */
@Module({
  imports: [ScreensModule],
  controllers: [TranscriptsController],
  providers: [ModelsService, UsageService, TranscriptsService],
  exports: [ModelsService, UsageService],
})
export class ModelsModule {}
