import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { encodeCursor } from '../common/cursor';
import { AuditEvent } from './audit-event.entity';
import { AuditFilter, AuditRepository } from './audit.repository';
import { ChainWalk, eventSha256, GENESIS_SHA256, type VerifyResult } from './audit-chain';

export { eventSha256, GENESIS_SHA256, type VerifyResult } from './audit-chain';

const BATCH = 500;

export interface AuditEntry {
  tenant: string;
  type: string;
  actor: string;
  runId?: string | null;
  step?: number | null;
  details?: Record<string, unknown>;
}

export type { AuditFilter } from './audit.repository';

export interface AuditEventView {
  id: string;
  tenant: string;
  seq: number;
  type: string;
  actor: string;
  run_id: string | null;
  step: number | null;
  at: string;
  details: Record<string, unknown>;
  prev_sha256: string;
  sha256: string;
}

@Injectable()
export class AuditService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: AuditRepository,
  ) {}

  /**
   * Appends one event to its tenant's chain. Pass the caller's transaction manager to make the
   * event part of the change it records; appends to one tenant are serialised by an advisory lock.
   */
  async record(entry: AuditEntry, manager?: EntityManager): Promise<AuditEvent> {
    if (!manager) return this.dataSource.transaction((m) => this.record(entry, m));
    await this.events.lockChain(manager, entry.tenant);
    const head = await this.events.head(manager, entry.tenant);
    const event = manager.create(AuditEvent, {
      tenant: entry.tenant,
      seq: (head?.seq ?? 0) + 1,
      type: entry.type,
      actor: entry.actor,
      runId: entry.runId ?? null,
      step: entry.step ?? null,
      at: new Date(),
      // What is hashed must be exactly what jsonb gives back: plain JSON.
      details: JSON.parse(JSON.stringify(entry.details ?? {})) as Record<string, unknown>,
      prevSha256: head?.sha256 ?? GENESIS_SHA256,
    });
    event.sha256 = eventSha256(event);
    return this.events.append(manager, event);
  }

  async list(
    tenant: string,
    filter: AuditFilter,
    limit: number,
  ): Promise<{ items: AuditEventView[]; next_cursor: string | null }> {
    const rows = await this.events.find(tenant, filter, limit + 1);
    const page = rows.slice(0, limit);
    const next = rows.length > limit ? encodeCursor([page[page.length - 1].seq]) : null;
    return { items: page.map(toView), next_cursor: next };
  }

  /** Every matching event, in chain order, fetched in batches (for the NDJSON export). */
  async *export(tenant: string, filter: AuditFilter): AsyncGenerator<AuditEventView> {
    let afterSeq = filter.afterSeq ?? 0;
    for (;;) {
      const rows = await this.events.find(tenant, { ...filter, afterSeq }, BATCH);
      for (const row of rows) yield toView(row);
      if (rows.length < BATCH) return;
      afterSeq = rows[rows.length - 1].seq;
    }
  }

  /** At most `limit` events after `afterSeq`, in chain order (what an audit sink is sent next). */
  async after(tenant: string, afterSeq: number, limit: number): Promise<AuditEventView[]> {
    return (await this.events.find(tenant, { afterSeq }, limit)).map(toView);
  }

  /** Walks the tenant's whole chain and recomputes every hash and link. */
  async verify(tenant: string): Promise<VerifyResult> {
    const walk = new ChainWalk();
    let afterSeq = 0;
    for (;;) {
      const rows = await this.events.find(tenant, { afterSeq }, BATCH);
      for (const row of rows) if (!walk.next(row)) return walk.result();
      if (rows.length < BATCH) return walk.result();
      afterSeq = rows[rows.length - 1].seq;
    }
  }
}

function toView(row: AuditEvent): AuditEventView {
  return {
    id: row.id,
    tenant: row.tenant,
    seq: row.seq,
    type: row.type,
    actor: row.actor,
    run_id: row.runId,
    step: row.step,
    at: row.at.toISOString(),
    details: row.details,
    prev_sha256: row.prevSha256,
    sha256: row.sha256,
  };
}
