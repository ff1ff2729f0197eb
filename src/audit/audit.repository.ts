import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { AuditEvent } from './audit-event.entity';

export interface AuditFilter {
  /** `computer_use.` (ends with a dot: a prefix) or an exact type such as `computer_use.write`. */
  type?: string;
  runId?: string;
  since?: Date;
  until?: Date;
  /** Only events after this sequence number. */
  afterSeq?: number;
}

/**
 * The audit_events table: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE), one hash
 * chain per tenant, appended under a transaction-scoped advisory lock of the tenant.
 */
@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Serialises appends to the tenant's chain until the caller's transaction ends. */
  async lockChain(manager: EntityManager, tenant: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('audit:' || $1, 0))`, [
      tenant,
    ]);
  }

  /** The newest event of the tenant's chain (its seq and hash), or null for an empty chain. */
  head(manager: EntityManager, tenant: string): Promise<Pick<AuditEvent, 'seq' | 'sha256'> | null> {
    return manager.getRepository(AuditEvent).findOne({
      where: { tenant },
      order: { seq: 'DESC' },
      select: { seq: true, sha256: true },
    });
  }

  append(manager: EntityManager, event: AuditEvent): Promise<AuditEvent> {
    return manager.save(event);
  }

  /** Matching events in chain order, at most `limit`. */
  find(tenant: string, filter: AuditFilter, limit: number): Promise<AuditEvent[]> {
    return this.query(tenant, filter).take(limit).getMany();
  }

  private query(tenant: string, filter: AuditFilter): SelectQueryBuilder<AuditEvent> {
    const qb = this.dataSource
      .getRepository(AuditEvent)
      .createQueryBuilder('e')
      .where('e.tenant = :tenant', { tenant })
      .orderBy('e.seq', 'ASC');
    if (filter.type !== undefined) {
      if (filter.type.endsWith('.')) {
        qb.andWhere(`e.type LIKE :prefix ESCAPE '\\'`, {
          prefix: filter.type.replace(/[\\%_]/g, (c) => `\\${c}`) + '%',
        });
      } else {
        qb.andWhere('e.type = :type', { type: filter.type });
      }
    }
    if (filter.runId !== undefined) qb.andWhere('e.run_id = :runId', { runId: filter.runId });
    if (filter.since !== undefined) qb.andWhere('e.at >= :since', { since: filter.since });
    if (filter.until !== undefined) qb.andWhere('e.at < :until', { until: filter.until });
    if (filter.afterSeq !== undefined)
      qb.andWhere('e.seq > :afterSeq', { afterSeq: filter.afterSeq });
    return qb;
  }
}
