import { Module } from '@nestjs/common';
import { RetentionModule } from './retention.module';
import { ScreenPurgeJob } from './screen-purge.job';

/** The worker's part of screen retention: the daily purge. */
@Module({ imports: [RetentionModule], providers: [ScreenPurgeJob] })
export class RetentionWorkerModule {}
