import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { updatedRows } from '../../sql/sql';

export type AccessKind = 'allow' | 'deny' | 'tag' | 'program';

/** One row of `planner_access`: an allow, a deny, a subject's tag or a tenant's program. */
export interface AccessRow {
  id: string;
  kind: AccessKind;
  tenant: string;
  /** allow/deny: the subject it is to (null: the whole tenant); tag: the subject tagged. */
  subject: string | null;
  /** allow/deny: an id or a family. */
  planner: string | null;
  /** tag/program: its name. */
  name: string | null;
  note: string | null;
  setBy: string;
  setAt: Date;
}

export type NewAccessRow = Omit<AccessRow, 'id' | 'setAt'>;

interface Raw {
  id: string;
  kind: AccessKind;
  tenant: string;
  subject: string | null;
  planner: string | null;
  name: string | null;
  note: string | null;
  set_by: string;
  set_at: Date;
}

const COLUMNS = 'id, kind, tenant, subject, planner, name, note, set_by, set_at';

function toRow(r: Raw): AccessRow {
  return {
    id: r.id,
    kind: r.kind,
    tenant: r.tenant,
    subject: r.subject,
    planner: r.planner,
    name: r.name,
    note: r.note,
    setBy: r.set_by,
    setAt: new Date(r.set_at),
  };
}

/** The SQL of `planner_access` (docs/planners.md "Planners as a catalog"). */
@Injectable()
export class PlannerAccessRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * What decides for one subject of a tenant: the tenant's allows and denies (to it or to any of
   * its subjects; the rule picks), the subject's tags and the tenant's programs.
   */
  async forCaller(
    tenant: string,
    subject: string,
  ): Promise<{ grants: AccessRow[]; tags: string[]; programs: string[] }> {
    const rows: Raw[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM planner_access
        WHERE tenant = $1
          AND (kind IN ('allow', 'deny', 'program') OR (kind = 'tag' AND subject = $2))
        ORDER BY set_at, id`,
      [tenant, subject],
    );
    const all = rows.map(toRow);
    return {
      grants: all.filter((r) => r.kind === 'allow' || r.kind === 'deny'),
      tags: all.filter((r) => r.kind === 'tag').map((r) => r.name!),
      programs: all.filter((r) => r.kind === 'program').map((r) => r.name!),
    };
  }

  /** Every row, of one tenant or of all, by tenant, kind and age. */
  async list(tenant?: string): Promise<AccessRow[]> {
    const rows: Raw[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM planner_access WHERE ($1::text IS NULL OR tenant = $1)
        ORDER BY tenant, kind, set_at, id`,
      [tenant ?? null],
    );
    return rows.map(toRow);
  }

  /** Inserts the row; null when the same one is there already (it is kept, note and all). */
  async insert(manager: EntityManager, row: NewAccessRow): Promise<AccessRow | null> {
    const rows: Raw[] = await manager.query(
      `INSERT INTO planner_access (kind, tenant, subject, planner, name, note, set_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT DO NOTHING
       RETURNING ${COLUMNS}`,
      [row.kind, row.tenant, row.subject, row.planner, row.name, row.note, row.setBy],
    );
    return rows.length > 0 ? toRow(rows[0]) : null;
  }

  /** The same row, as it stands. */
  async find(
    manager: EntityManager,
    key: Omit<NewAccessRow, 'note' | 'setBy'>,
  ): Promise<AccessRow | null> {
    const rows: Raw[] = await manager.query(
      `SELECT ${COLUMNS} FROM planner_access
        WHERE kind = $1 AND tenant = $2 AND subject IS NOT DISTINCT FROM $3
          AND planner IS NOT DISTINCT FROM $4 AND name IS NOT DISTINCT FROM $5`,
      [key.kind, key.tenant, key.subject, key.planner, key.name],
    );
    return rows.length > 0 ? toRow(rows[0]) : null;
  }

  /** Deletes the row by id; the row deleted, or null when there was none. */
  async delete(manager: EntityManager, id: string): Promise<AccessRow | null> {
    const rows = updatedRows<Raw>(
      await manager.query(`DELETE FROM planner_access WHERE id = $1 RETURNING ${COLUMNS}`, [id]),
    );
    return rows.length > 0 ? toRow(rows[0]) : null;
  }
}
