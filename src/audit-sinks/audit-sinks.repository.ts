import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityFromRow, updatedRows } from '../sql/sql';
import { AuditSink } from './audit-sink.entity';
import type { SinkConfig } from './sink-config';

/** A sink's delivery state, with its tenant's chain head, for the GET and the lag metrics. */
export interface SinkState {
  tenant: string;
  name: string;
  deliveredSeq: number;
  headSeq: number;
  /** The time of the oldest event not yet acknowledged; null when none is waiting. */
  oldestUnsentAt: Date | null;
  lastDeliveredAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  nextTryAt: Date;
}

/**
 * The audit_sinks table: each sink's config, its delivery cursor and its lease. The cursor only
 * moves forward, and only for the worker holding the lease.
 */
@Injectable()
export class AuditSinksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Serialises changes to one tenant's sinks until the caller's transaction ends. */
  async lockTenant(manager: EntityManager, tenant: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('sinks:' || $1, 0))`, [
      tenant,
    ]);
  }

  list(tenant: string, manager: EntityManager = this.dataSource.manager): Promise<AuditSink[]> {
    return manager.getRepository(AuditSink).find({ where: { tenant }, order: { position: 'ASC' } });
  }

  /**
   * Makes the tenant's sinks exactly `sinks`: a sink whose name stays keeps its cursor (even when
   * its destination changes), a new name starts at the beginning of the chain, a removed one is gone.
   */
  async replace(
    manager: EntityManager,
    tenant: string,
    sinks: SinkConfig[],
    actor: string,
  ): Promise<void> {
    await manager.query(`DELETE FROM audit_sinks WHERE tenant = $1 AND NOT (name = ANY($2))`, [
      tenant,
      sinks.map((s) => s.name),
    ]);
    for (const [position, sink] of sinks.entries()) {
      await manager.query(
        `INSERT INTO audit_sinks (tenant, name, position, kind, config, updated_by)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6)
         ON CONFLICT (tenant, name) DO UPDATE
            SET position = EXCLUDED.position, kind = EXCLUDED.kind, config = EXCLUDED.config,
                updated_by = EXCLUDED.updated_by, updated_at = now(),
                failures = 0, next_try_at = now()
          WHERE audit_sinks.config IS DISTINCT FROM EXCLUDED.config
             OR audit_sinks.position IS DISTINCT FROM EXCLUDED.position`,
        [tenant, sink.name, position, sink.kind, JSON.stringify(sink), actor],
      );
    }
  }

  /** Sinks of every tenant whose next try is due and whose lease is free (or this worker's). */
  async due(owner: string, limit: number): Promise<Array<{ tenant: string; name: string }>> {
    return this.dataSource.query(
      `SELECT tenant, name FROM audit_sinks
        WHERE next_try_at <= now()
          AND (lease_owner IS NULL OR lease_until < now() OR lease_owner = $1)
        ORDER BY next_try_at LIMIT $2`,
      [owner, limit],
    );
  }

  /** Takes (or renews) the sink's lease for `ms`; the sink as it is now, or null when another worker holds it. */
  async lease(tenant: string, name: string, owner: string, ms: number): Promise<AuditSink | null> {
    const rows = updatedRows<Record<string, unknown>>(
      await this.dataSource.query(
        `UPDATE audit_sinks
            SET lease_owner = $3, lease_until = now() + make_interval(secs => $4::double precision / 1000)
          WHERE tenant = $1 AND name = $2
            AND (lease_owner IS NULL OR lease_until < now() OR lease_owner = $3)
          RETURNING *`,
        [tenant, name, owner, ms],
      ),
    );
    return rows[0] ? entityFromRow(this.dataSource, AuditSink, rows[0]) : null;
  }

  /**
   * The sink acknowledged every event up to `seq`: the cursor moves there and the lease is
   * renewed. False when the lease is no longer this worker's (nothing changes then).
   */
  async advance(
    tenant: string,
    name: string,
    owner: string,
    seq: number,
    leaseMs: number,
  ): Promise<boolean> {
    const rows = updatedRows<unknown>(
      await this.dataSource.query(
        `UPDATE audit_sinks
            SET delivered_seq = GREATEST(delivered_seq, $4), last_delivered_at = now(),
                failures = 0, last_error = NULL, last_error_at = NULL,
                lease_until = now() + make_interval(secs => $5::double precision / 1000)
          WHERE tenant = $1 AND name = $2 AND lease_owner = $3
          RETURNING name`,
        [tenant, name, owner, seq, leaseMs],
      ),
    );
    return rows.length > 0;
  }

  /**
   * A try failed: the error is kept, the lease let go, and the next try waits `baseMs` doubled for
   * each failure in a row before this one, at most `maxMs`.
   */
  async fail(
    tenant: string,
    name: string,
    owner: string,
    error: string,
    baseMs: number,
    maxMs: number,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE audit_sinks
          SET failures = failures + 1, last_error = $4, last_error_at = now(),
              next_try_at = now() + make_interval(
                secs => LEAST($5::double precision * power(2, LEAST(failures, 30)), $6) / 1000),
              lease_owner = NULL, lease_until = NULL
        WHERE tenant = $1 AND name = $2 AND lease_owner = $3`,
      [tenant, name, owner, error.slice(0, 500), baseMs, maxMs],
    );
  }

  /** Lets go of the sink's lease (caught up, or shutting down). */
  async release(tenant: string, name: string, owner: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE audit_sinks SET lease_owner = NULL, lease_until = NULL
        WHERE tenant = $1 AND name = $2 AND lease_owner = $3`,
      [tenant, name, owner],
    );
  }

  /** Every sink's delivery state (of one tenant, or of all), with its tenant's chain head. */
  async states(tenant?: string): Promise<SinkState[]> {
    const rows = await this.dataSource.query<Array<Record<string, unknown>>>(
      `SELECT s.tenant, s.name, s.delivered_seq, COALESCE(h.seq, 0) AS head_seq,
              n.at AS oldest_unsent_at, s.last_delivered_at, s.last_error, s.last_error_at,
              s.next_try_at
         FROM audit_sinks s
         LEFT JOIN LATERAL (
           SELECT e.seq FROM audit_events e WHERE e.tenant = s.tenant ORDER BY e.seq DESC LIMIT 1
         ) h ON true
         LEFT JOIN audit_events n ON n.tenant = s.tenant AND n.seq = s.delivered_seq + 1
        WHERE $1::text IS NULL OR s.tenant = $1
        ORDER BY s.tenant, s.position`,
      [tenant ?? null],
    );
    return rows.map((r) => ({
      tenant: r.tenant as string,
      name: r.name as string,
      deliveredSeq: Number(r.delivered_seq),
      headSeq: Number(r.head_seq),
      oldestUnsentAt: (r.oldest_unsent_at as Date | null) ?? null,
      lastDeliveredAt: (r.last_delivered_at as Date | null) ?? null,
      lastError: (r.last_error as string | null) ?? null,
      lastErrorAt: (r.last_error_at as Date | null) ?? null,
      nextTryAt: r.next_try_at as Date,
    }));
  }
}
