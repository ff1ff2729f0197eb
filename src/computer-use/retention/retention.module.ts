import { Module } from '@nestjs/common';
import { RetentionRepository } from './retention.repository';
import { RetentionService } from './retention.service';

/** Screen retention, legal holds and the purge (used by the API, the worker and the CLI). */
@Module({
  providers: [RetentionService, RetentionRepository],
  exports: [RetentionService],
})
export class RetentionModule {}
