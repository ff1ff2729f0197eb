import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets/secrets.module';
import { AuditShipper } from './audit-shipper.service';
import { AuditSinksModule } from './audit-sinks.module';
import { SinkDelivery } from './sink-delivery.service';

/** The worker's part of audit streaming: the shipper and what sends a batch. */
@Module({
  imports: [AuditSinksModule, SecretsModule],
  providers: [AuditShipper, SinkDelivery],
})
export class AuditSinksWorkerModule {}
