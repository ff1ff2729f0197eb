import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { decodeCursor, encodeCursor } from '../../common/cursor';
import { cursorTime, entityFromRow } from '../../sql/sql';
import type { Script } from './script.types';
import { ScriptedPlannerRecord } from './scripted-planner.entity';

/** The scripted_planners table. A deleted planner keeps its row (`deleted_at`) and is not found. */
@Injectable()
export class ScriptedPlannersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  create(manager: EntityManager, fields: Partial<ScriptedPlannerRecord>) {
    return manager.save(manager.create(ScriptedPlannerRecord, fields));
  }

  /**
   * The tenant's live planners, counted after taking the tenant's row lock (its row in `tenants`),
   * so that creates of one tenant count one after another.
   */
  async lockAndCount(manager: EntityManager, tenant: string): Promise<number> {
    await manager.query(`SELECT 1 FROM tenants WHERE id = $1 FOR UPDATE`, [tenant]);
    const rows: Array<{ n: number }> = await manager.query(
      `SELECT count(*)::int AS n FROM scripted_planners WHERE tenant = $1 AND deleted_at IS NULL`,
      [tenant],
    );
    return rows[0]?.n ?? 0;
  }

  save(manager: EntityManager, row: ScriptedPlannerRecord) {
    return manager.save(row);
  }

  /** A live planner of the tenant. */
  findLive(tenant: string, id: string): Promise<ScriptedPlannerRecord | null> {
    return this.dataSource
      .getRepository(ScriptedPlannerRecord)
      .findOne({ where: { id, tenant, deletedAt: IsNull() } });
  }

  /** A live planner of the tenant, locked for the rest of the caller's transaction. */
  lockLive(manager: EntityManager, tenant: string, id: string) {
    return manager.getRepository(ScriptedPlannerRecord).findOne({
      where: { id, tenant, deletedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async softDelete(manager: EntityManager, id: string, at: Date): Promise<void> {
    await manager
      .getRepository(ScriptedPlannerRecord)
      .update({ id, deletedAt: IsNull() }, { deletedAt: at, updatedAt: at });
  }

  /** A live planner's script, read before every step: one plain statement for the one column. */
  async script(tenant: string, id: string): Promise<Script | null> {
    const rows: Array<{ script: Script }> = await this.dataSource.query(
      `SELECT script FROM scripted_planners WHERE id = $1 AND tenant = $2 AND deleted_at IS NULL`,
      [id, tenant],
    );
    return rows[0]?.script ?? null;
  }

  /** A planner's script as stored, in the caller's transaction (deleted or not). */
  async scriptIn(manager: EntityManager, tenant: string, id: string): Promise<Script> {
    const rows: Array<{ script: Script }> = await manager.query(
      `SELECT script FROM scripted_planners WHERE id = $1 AND tenant = $2`,
      [id, tenant],
    );
    if (!rows[0]) throw new Error(`scripted planner ${id} is not in tenant ${tenant}`);
    return rows[0].script;
  }

  /** The ids and names of the tenant's live planners, oldest first, at most `limit` (the catalog). */
  async names(tenant: string, limit: number): Promise<Array<{ id: string; name: string }>> {
    return this.dataSource.query(
      `SELECT id, name FROM scripted_planners WHERE tenant = $1 AND deleted_at IS NULL
        ORDER BY created_at, id LIMIT $2`,
      [tenant, limit],
    );
  }

  /** The tenant's live planners, oldest first, a page after `cursor`. */
  async page(
    tenant: string,
    limit: number,
    cursor?: string,
  ): Promise<{ items: ScriptedPlannerRecord[]; next_cursor: string | null }> {
    const params: unknown[] = [tenant, limit + 1];
    let after = '';
    if (cursor !== undefined) {
      const [at, id] = decodeCursor<[string, string]>(cursor, 'tu');
      after = `AND (created_at, id) > ($${params.push(at)}::timestamptz, $${params.push(id)}::uuid)`;
    }
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT *, ${cursorTime('created_at')} AS cursor_at FROM scripted_planners
        WHERE tenant = $1 AND deleted_at IS NULL ${after}
        ORDER BY created_at, id LIMIT $2`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((row) => entityFromRow(this.dataSource, ScriptedPlannerRecord, row)),
      next_cursor:
        rows.length > limit ? encodeCursor([String(last.cursor_at), String(last.id)]) : null,
    };
  }
}
