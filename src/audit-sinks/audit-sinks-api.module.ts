import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets/secrets.module';
import { TenantsModule } from '../tenants/tenants.module';
import { AuditSinkMetrics } from './audit-sink-metrics.service';
import { AuditSinksController } from './audit-sinks.controller';
import { AuditSinksModule } from './audit-sinks.module';
import { AuditSinksService } from './audit-sinks.service';

/** `GET/PUT /api/admin/audit-sinks` and the sinks' lag metrics. */
@Module({
  imports: [AuditSinksModule, TenantsModule, SecretsModule],
  controllers: [AuditSinksController],
  providers: [AuditSinksService, AuditSinkMetrics],
})
export class AuditSinksApiModule {}
