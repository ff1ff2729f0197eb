import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { updatedRows } from '../../sql/sql';

/** A tenant's screen retention when its admin never set one (the EU AI Act's six months). */
export const DEFAULT_RETENTION_DAYS = 180;
export const MIN_RETENTION_DAYS = 180;
export const MAX_RETENTION_DAYS = 3650;

export interface RetentionRow {
  retention_days: number;
  updated_by: string;
  updated_at: Date;
}

export interface LegalHoldRow {
  legal_hold: boolean;
  legal_hold_reason: string | null;
  legal_hold_by: string | null;
  legal_hold_at: Date | null;
}

/** One screen whose bytes a purge dropped. */
export interface PurgedScreen {
  tenant: string;
  sha256: string;
}

/** The purge's lock: one worker (or CLI) at a time drops screens. */
const PURGE_LOCK = `hashtextextended('warden:screen-purge', 0)`;

/** Screen retention, legal holds and the purge, in SQL. */
@Injectable()
export class RetentionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async retention(tenant: string, manager?: EntityManager): Promise<RetentionRow | null> {
    const rows: RetentionRow[] = await (manager ?? this.dataSource.manager).query(
      'SELECT retention_days, updated_by, updated_at FROM screen_retention WHERE tenant = $1',
      [tenant],
    );
    return rows[0] ?? null;
  }

  /**
   * Serialises changes of the tenant's retention for the transaction: the value a change is
   * judged against (shorter is a weakening) is the one it replaces, even before any row exists.
   */
  async lockRetention(manager: EntityManager, tenant: string): Promise<void> {
    await manager.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('warden:retention:' || $1, 0))`,
      [tenant],
    );
  }

  async saveRetention(
    manager: EntityManager,
    tenant: string,
    days: number,
    by: string,
  ): Promise<RetentionRow> {
    const rows: RetentionRow[] = await manager.query(
      `INSERT INTO screen_retention (tenant, retention_days, updated_by, updated_at)
       VALUES ($1, $2, $3, now())
       ON CONFLICT (tenant) DO UPDATE
         SET retention_days = EXCLUDED.retention_days, updated_by = EXCLUDED.updated_by,
             updated_at = EXCLUDED.updated_at
       RETURNING retention_days, updated_by, updated_at`,
      [tenant, days, by],
    );
    return rows[0];
  }

  /** Whether the run is held now, its row locked for the transaction; null when there is no such run. */
  async lockLegalHold(
    manager: EntityManager,
    tenant: string,
    runId: string,
  ): Promise<boolean | null> {
    const rows: Array<{ legal_hold: boolean }> = await manager.query(
      `SELECT legal_hold FROM runs WHERE tenant = $1 AND id = $2 FOR UPDATE`,
      [tenant, runId],
    );
    return rows[0]?.legal_hold ?? null;
  }

  /** Sets or lifts the run's hold; null when the tenant has no such run. */
  async setLegalHold(
    manager: EntityManager,
    tenant: string,
    runId: string,
    held: boolean,
    reason: string | null,
    by: string,
  ): Promise<LegalHoldRow | null> {
    const rows = updatedRows<LegalHoldRow>(
      await manager.query(
        `UPDATE runs SET legal_hold = $3, legal_hold_reason = $4, legal_hold_by = $5,
                legal_hold_at = now()
          WHERE tenant = $1 AND id = $2
          RETURNING legal_hold, legal_hold_reason, legal_hold_by, legal_hold_at`,
        [tenant, runId, held, reason, by],
      ),
    );
    return rows[0] ?? null;
  }

  /** Takes the purge lock for the transaction; false when another purge holds it. */
  async tryLockPurge(manager: EntityManager): Promise<boolean> {
    const rows: Array<{ locked: boolean }> = await manager.query(
      `SELECT pg_try_advisory_xact_lock(${PURGE_LOCK}) AS locked`,
    );
    return rows[0].locked;
  }

  /**
   * Drops the bytes of at most `limit` screens of every tenant (or of `tenant` alone) not used for
   * longer than the tenant's retention before `now`, and referenced by no step or held write of a
   * run under legal hold. The rows, their hashes and every step and audit event stay.
   */
  async purgeBatch(
    manager: EntityManager,
    now: Date,
    limit: number,
    tenant?: string,
  ): Promise<PurgedScreen[]> {
    return updatedRows<PurgedScreen>(
      await manager.query(
        `WITH due AS (
           SELECT s.tenant, s.sha256
             FROM screens s
             LEFT JOIN screen_retention r ON r.tenant = s.tenant
            WHERE s.purged_at IS NULL
              AND ($4::text IS NULL OR s.tenant = $4)
              AND s.last_used_at < $1::timestamptz
                    - make_interval(days => COALESCE(r.retention_days, $3))
              AND NOT EXISTS (
                SELECT 1 FROM steps st JOIN runs ru ON ru.id = st.run_id
                 WHERE st.tenant = s.tenant AND st.screen_sha256 = s.sha256 AND ru.legal_hold)
              AND NOT EXISTS (
                SELECT 1 FROM approvals a JOIN runs ru ON ru.id = a.run_id
                 WHERE a.tenant = s.tenant AND a.screen_sha256 = s.sha256 AND ru.legal_hold)
            ORDER BY s.last_used_at
            LIMIT $2
            FOR UPDATE OF s SKIP LOCKED)
         UPDATE screens s SET png = NULL, purged_at = $1
           FROM due
          WHERE s.tenant = due.tenant AND s.sha256 = due.sha256
          RETURNING s.tenant, s.sha256`,
        [now, limit, DEFAULT_RETENTION_DAYS, tenant ?? null],
      ),
    );
  }
}
