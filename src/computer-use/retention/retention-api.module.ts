import { Module } from '@nestjs/common';
import { LegalHoldController } from './legal-hold.controller';
import { RetentionController } from './retention.controller';
import { RetentionModule } from './retention.module';

/** The API of screen retention: the tenant's retention and the legal hold of a run. */
@Module({
  imports: [RetentionModule],
  controllers: [RetentionController, LegalHoldController],
})
export class RetentionApiModule {}
