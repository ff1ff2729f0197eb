import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { decodeCursor, encodeCursor } from '../common/cursor';
import { cursorTime, entityFromRow, updatedRows } from '../sql/sql';
import { Delivery, DeliveryStatus } from './delivery.entity';

export interface DeliveryPage {
  items: Delivery[];
  next_cursor: string | null;
}

export interface DeliveryFilter {
  status?: DeliveryStatus;
  runId?: string;
}

/**
 * The deliveries table. A delivery moves pending → delivered | failed | not_granted once; each
 * attempt counts while it is pending, so a job BullMQ runs again after a worker died counts too.
 */
@Injectable()
export class DeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async createMany(rows: Array<Partial<Delivery>>): Promise<Delivery[]> {
    const repo = this.dataSource.getRepository(Delivery);
    return repo.save(rows.map((row) => repo.create({ ...row, status: 'pending', attempts: 0 })));
  }

  findById(id: string): Promise<Delivery | null> {
    return this.dataSource.getRepository(Delivery).findOneBy({ id });
  }

  /** Counts a try of a pending delivery; null when it is no longer pending. */
  async startAttempt(id: string): Promise<Delivery | null> {
    const rows = updatedRows<Record<string, unknown>>(
      await this.dataSource.query(
        `UPDATE deliveries SET attempts = attempts + 1, updated_at = now()
          WHERE id = $1 AND status = 'pending' RETURNING *`,
        [id],
      ),
    );
    return rows[0] ? entityFromRow(this.dataSource, Delivery, rows[0]) : null;
  }

  /** A try that failed and will be tried again: the error is kept, the status stays pending. */
  async noteError(id: string, error: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE deliveries SET last_error = $2, updated_at = now() WHERE id = $1 AND status = 'pending'`,
      [id, error],
    );
  }

  /** The delivery's last state, once. */
  async settle(
    id: string,
    status: Exclude<DeliveryStatus, 'pending'>,
    error: string | null,
  ): Promise<boolean> {
    const rows = updatedRows<unknown>(
      await this.dataSource.query(
        `UPDATE deliveries
            SET status = $2, last_error = COALESCE($3, last_error), updated_at = now(),
                delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE NULL END
          WHERE id = $1 AND status = 'pending' RETURNING id`,
        [id, status, error],
      ),
    );
    return rows.length > 0;
  }

  /**
   * Pending deliveries no try has touched for `idleMs`: their job may be lost with Redis, so the
   * reconciler queues them again (the job id is the delivery's, so one still queued stays one).
   */
  async idlePending(idleMs: number, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM deliveries
        WHERE status = 'pending' AND updated_at < now() - make_interval(secs => $1::double precision / 1000)
        ORDER BY updated_at LIMIT $2`,
      [idleMs, limit],
    );
    return rows.map((r) => r.id);
  }

  /** The tenant's deliveries, newest first, a page after `cursor`. */
  async page(
    tenant: string,
    filter: DeliveryFilter,
    limit: number,
    cursor?: string,
  ): Promise<DeliveryPage> {
    const params: unknown[] = [tenant, limit + 1];
    const where = ['tenant = $1'];
    if (filter.status) where.push(`status = $${params.push(filter.status)}`);
    if (filter.runId) where.push(`run_id = $${params.push(filter.runId)}::uuid`);
    if (cursor) {
      const [at, id] = decodeCursor<[string, string]>(cursor, 'tu');
      where.push(
        `(created_at, id) < ($${params.push(at)}::timestamptz, $${params.push(id)}::uuid)`,
      );
    }
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT *, ${cursorTime('created_at')} AS cursor_at FROM deliveries
        WHERE ${where.join(' AND ')}
        ORDER BY created_at DESC, id DESC LIMIT $2`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((row) => entityFromRow(this.dataSource, Delivery, row)),
      next_cursor:
        rows.length > limit ? encodeCursor([String(last.cursor_at), String(last.id)]) : null,
    };
  }
}
