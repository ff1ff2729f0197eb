import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import type { Caller } from '../../auth/caller';
import { forbidden, invalid, notFound } from '../../common/domain-error';
import {
  evidenceReasonMissing,
  evidenceRefusal,
  type EvidenceWeakening,
  evidenceWeakening,
} from '../settings/evidence-weakening';
import {
  DEFAULT_RETENTION_DAYS,
  MAX_RETENTION_DAYS,
  MIN_RETENTION_DAYS,
  PurgedScreen,
  RetentionRepository,
} from './retention.repository';

export interface RetentionView {
  retention_days: number;
  /** Whether the tenant runs on the default (no admin set it). */
  default: boolean;
  updated_by: string | null;
  updated_at: string | null;
}

export interface LegalHoldView {
  run_id: string;
  held: boolean;
  reason: string | null;
  updated_by: string | null;
  updated_at: string | null;
}

export interface PurgeResult {
  /** Screens whose bytes were dropped. */
  purged: number;
  batches: number;
  /** False when another worker held the purge lock (it does the work). */
  ran: boolean;
}

/** Who the audit log names for the purge. */
export const PURGE_ACTOR = 'system:retention';

/**
 * Screen retention (issue 17 §2): a tenant's retention in days, legal holds on runs, and the purge
 * that drops the PNG bytes of screens not used for longer than that. Screens are not part of the
 * audit chain (events name them by SHA-256 only), so the chain verifies after a purge.
 */
@Injectable()
export class RetentionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: RetentionRepository,
    private readonly audit: AuditService,
  ) {}

  async view(tenant: string): Promise<RetentionView> {
    const row = await this.repository.retention(tenant);
    return {
      retention_days: row?.retention_days ?? DEFAULT_RETENTION_DAYS,
      default: !row,
      updated_by: row?.updated_by ?? null,
      updated_at: row?.updated_at.toISOString() ?? null,
    };
  }

  /**
   * Sets the tenant's retention (180 to 3650 days), audited `screens.retention_changed`. Shortening
   * it lets screens go sooner: a weakening (docs/security.md), which needs `governance.weaken` and a
   * reason and is audited `governance.weaken` as well.
   */
  async set(caller: Caller, days: number, reason?: string): Promise<RetentionView> {
    if (!Number.isInteger(days) || days < MIN_RETENTION_DAYS) {
      throw invalid(
        `retention_days must be at least ${MIN_RETENTION_DAYS}: deployers of high-risk AI systems keep their logs for at least six months (EU AI Act, Art. 26(6)); ${String(days)} is refused`,
      );
    }
    if (days > MAX_RETENTION_DAYS) {
      throw invalid(`retention_days must be at most ${MAX_RETENTION_DAYS} (ten years)`);
    }
    const why = reason?.trim() || null;
    await this.dataSource.transaction(async (manager) => {
      await this.repository.lockRetention(manager, caller.tenant);
      const previous =
        (await this.repository.retention(caller.tenant, manager))?.retention_days ??
        DEFAULT_RETENTION_DAYS;
      const weakened = evidenceWeakening('retention_days', previous, days);
      if (weakened) checkWeakening(caller, weakened, why);
      await this.repository.saveRetention(manager, caller.tenant, days, caller.subject);
      await this.audit.record(
        {
          tenant: caller.tenant,
          type: 'screens.retention_changed',
          actor: caller.subject,
          details: { retention_days: days, previous, reason: why, token_id: caller.tokenId },
        },
        manager,
      );
      if (weakened) await this.auditWeakening(manager, caller, weakened, why);
    });
    return this.view(caller.tenant);
  }

  /**
   * Holds (with a reason) or releases a run's screens, audited `screens.legal_hold`. Lifting a hold
   * lets the next purge take them: a weakening (docs/security.md), which needs `governance.weaken` and a
   * reason and is audited `governance.weaken` as well.
   */
  async setLegalHold(
    caller: Caller,
    runId: string,
    held: boolean,
    reason?: string,
  ): Promise<LegalHoldView> {
    const why = reason?.trim() || null;
    if (held && !why) {
      throw invalid('reason is required for a legal hold: say which case or request it is for');
    }
    return this.dataSource.transaction(async (manager) => {
      const wasHeld = await this.repository.lockLegalHold(manager, caller.tenant, runId);
      if (wasHeld === null) throw notFound(`no run ${runId}`);
      const weakened = evidenceWeakening('legal_hold', wasHeld, held);
      if (weakened) checkWeakening(caller, weakened, why);
      const row = (await this.repository.setLegalHold(
        manager,
        caller.tenant,
        runId,
        held,
        why,
        caller.subject,
      ))!;
      await this.audit.record(
        {
          tenant: caller.tenant,
          type: 'screens.legal_hold',
          actor: caller.subject,
          runId,
          details: { held, reason: why, token_id: caller.tokenId },
        },
        manager,
      );
      if (weakened) await this.auditWeakening(manager, caller, weakened, why, runId);
      return {
        run_id: runId,
        held: row.legal_hold,
        reason: row.legal_hold_reason,
        updated_by: row.legal_hold_by,
        updated_at: row.legal_hold_at?.toISOString() ?? null,
      };
    });
  }

  private async auditWeakening(
    manager: EntityManager,
    caller: Caller,
    weakened: EvidenceWeakening,
    reason: string | null,
    runId?: string,
  ): Promise<void> {
    await this.audit.record(
      {
        tenant: caller.tenant,
        type: 'governance.weaken',
        actor: caller.subject,
        runId: runId ?? null,
        details: {
          control: weakened.control,
          ...(runId ? { run_id: runId } : {}),
          from: weakened.from,
          to: weakened.to,
          reason,
          token_id: caller.tokenId,
        },
      },
      manager,
    );
  }

  /**
   * Drops the bytes of every screen past its tenant's retention, `batch` screens a transaction,
   * each batch audited `screens.purged` per tenant with the SHA-256 of each screen. One purge at a
   * time across workers (an advisory lock per batch); stops after `maxBatches`, the next run goes on.
   * `now` is the moment the purge runs as of (the operator's `screens purge --as-of`), `tenant`
   * limits it to one tenant's screens.
   */
  async purge(
    options: { now?: Date; tenant?: string; batch?: number; maxBatches?: number } = {},
  ): Promise<PurgeResult> {
    const now = options.now ?? new Date();
    const batch = options.batch ?? 500;
    const maxBatches = options.maxBatches ?? 1000;
    let purged = 0;
    let batches = 0;
    while (batches < maxBatches) {
      const done = await this.dataSource.transaction(async (manager) => {
        if (!(await this.repository.tryLockPurge(manager))) return null;
        const rows = await this.repository.purgeBatch(manager, now, batch, options.tenant);
        for (const [tenant, hashes] of byTenant(rows)) {
          await this.audit.record(
            {
              tenant,
              type: 'screens.purged',
              actor: PURGE_ACTOR,
              details: { count: hashes.length, sha256: hashes, at: now.toISOString() },
            },
            manager,
          );
        }
        return rows.length;
      });
      if (done === null) return { purged, batches, ran: batches > 0 };
      batches += 1;
      purged += done;
      if (done < batch) break;
    }
    return { purged, batches, ran: true };
  }
}

/** A weakening of evidence needs governance.weaken (403) and a reason (400). */
function checkWeakening(caller: Caller, weakened: EvidenceWeakening, reason: string | null): void {
  if (!caller.permissions.has('governance.weaken')) throw forbidden(evidenceRefusal(weakened));
  const missing = evidenceReasonMissing(weakened, reason);
  if (missing) throw invalid(missing);
}

function byTenant(rows: PurgedScreen[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const row of rows) {
    const list = map.get(row.tenant) ?? [];
    list.push(row.sha256.trim());
    map.set(row.tenant, list);
  }
  return map;
}
