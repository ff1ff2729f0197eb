import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { updatedRows } from '../../sql/sql';

/** A remote planner family as the deployment operator registered it (docs/models.md). */
export interface RemoteFamily {
  family: string;
  version: string;
  effort: string;
  /** How long a step waits for a decision before it fails `planner_timeout`. */
  deadlineSeconds: number;
  /** Whether its workers are given the screenshot. */
  pixels: boolean;
  /** Subjects with one of these tags, tenants in one of these programs may use it (the rule's step 4). */
  tags: string[];
  programs: string[];
  note: string | null;
  setBy: string;
  setAt: Date;
}

interface Raw {
  family: string;
  version: string;
  effort: string;
  deadline_seconds: number;
  pixels: boolean;
  tags: string[];
  programs: string[];
  note: string | null;
  set_by: string;
  set_at: Date;
}

const COLUMNS =
  'family, version, effort, deadline_seconds, pixels, tags, programs, note, set_by, set_at';

function toFamily(r: Raw): RemoteFamily {
  return {
    family: r.family,
    version: r.version,
    effort: r.effort,
    deadlineSeconds: r.deadline_seconds,
    pixels: r.pixels,
    tags: r.tags ?? [],
    programs: r.programs ?? [],
    note: r.note,
    setBy: r.set_by,
    setAt: new Date(r.set_at),
  };
}

/** The SQL of `remote_planners` and of the workers' heartbeats (`planner_workers`). */
@Injectable()
export class RemoteFamiliesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async all(): Promise<RemoteFamily[]> {
    const rows: Raw[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM remote_planners ORDER BY family`,
    );
    return rows.map(toFamily);
  }

  async find(family: string): Promise<RemoteFamily | null> {
    const rows: Raw[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM remote_planners WHERE family = $1`,
      [family],
    );
    return rows.length > 0 ? toFamily(rows[0]) : null;
  }

  /** Registers the family, or replaces its registration; the row as it stands now. */
  async upsert(
    manager: EntityManager,
    f: Omit<RemoteFamily, 'setAt'>,
  ): Promise<{ family: RemoteFamily; created: boolean }> {
    const rows: Array<Raw & { created: boolean }> = await manager.query(
      `INSERT INTO remote_planners
         (family, version, effort, deadline_seconds, pixels, tags, programs, note, set_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (family) DO UPDATE SET version = EXCLUDED.version, effort = EXCLUDED.effort,
         deadline_seconds = EXCLUDED.deadline_seconds, pixels = EXCLUDED.pixels,
         tags = EXCLUDED.tags, programs = EXCLUDED.programs,
         note = EXCLUDED.note, set_by = EXCLUDED.set_by, set_at = now()
       RETURNING ${COLUMNS}, (xmax = 0) AS created`,
      [
        f.family,
        f.version,
        f.effort,
        f.deadlineSeconds,
        f.pixels,
        f.tags,
        f.programs,
        f.note,
        f.setBy,
      ],
    );
    return { family: toFamily(rows[0]), created: rows[0].created };
  }

  async delete(manager: EntityManager, family: string): Promise<RemoteFamily | null> {
    const rows = updatedRows<Raw>(
      await manager.query(`DELETE FROM remote_planners WHERE family = $1 RETURNING ${COLUMNS}`, [
        family,
      ]),
    );
    return rows.length > 0 ? toFamily(rows[0]) : null;
  }

  /** A worker (its name, under its token) asked for work of these families: its heartbeat. */
  async heartbeat(
    tenant: string,
    families: string[],
    worker: string,
    tokenId: string,
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO planner_workers (tenant, family, worker, token_id, last_seen_at)
       SELECT $1, f, $3, $4, now() FROM unnest($2::text[]) AS f
       ON CONFLICT (tenant, family, worker, token_id) DO UPDATE SET last_seen_at = now()`,
      [tenant, families, worker, tokenId],
    );
  }

  /**
   * When a worker of the tenant last asked for the family's work; null: never. With `claimer`,
   * only that worker under that token counts (the one that claimed a step): another token asking
   * under the same name keeps no claim alive.
   */
  async lastSeen(
    tenant: string,
    family: string,
    claimer?: { worker: string; tokenId: string },
  ): Promise<Date | null> {
    const rows: Array<{ at: Date | null }> = await this.dataSource.query(
      `SELECT max(last_seen_at) AS at FROM planner_workers
        WHERE tenant = $1 AND family = $2
          AND ($3::text IS NULL OR (worker = $3 AND token_id = $4::uuid))`,
      [tenant, family, claimer?.worker ?? null, claimer?.tokenId ?? null],
    );
    return rows[0]?.at ? new Date(rows[0].at) : null;
  }

  /** The families a worker of the tenant asked for within `seconds`. */
  async serving(tenant: string, seconds: number): Promise<Set<string>> {
    const rows: Array<{ family: string }> = await this.dataSource.query(
      `SELECT DISTINCT family FROM planner_workers
        WHERE tenant = $1 AND last_seen_at > now() - make_interval(secs => $2)`,
      [tenant, seconds],
    );
    return new Set(rows.map((r) => r.family));
  }
}
