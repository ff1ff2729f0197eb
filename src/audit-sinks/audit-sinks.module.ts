import { Module } from '@nestjs/common';
import { AuditSinksRepository } from './audit-sinks.repository';

/** The audit_sinks table, shared by the API and the worker. */
@Module({ providers: [AuditSinksRepository], exports: [AuditSinksRepository] })
export class AuditSinksModule {}
