import { Module } from '@nestjs/common';
import { RunStateModule } from '../runs/run-state.module';
import { ModelsModule } from './models.module';
import { TranscriptsController } from './transcripts.controller';
import { TranscriptsService } from './transcripts.service';

/** The transcripts route: a model-planned step's calls, read in the caller's tenant. */
@Module({
  imports: [ModelsModule, RunStateModule],
  controllers: [TranscriptsController],
  providers: [TranscriptsService],
})
export class ModelsApiModule {}
