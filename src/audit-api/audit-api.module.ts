import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller';

/** The audit API: query, export and verify (the service itself is in the core's AuditModule). */
@Module({ controllers: [AuditController] })
export class AuditApiModule {}
