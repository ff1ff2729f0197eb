import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { updatedRows } from '../../database/sql';

/** What the store keeps of a screen besides its PNG bytes. */
export interface PixelFacts {
  /** SHA-256 over width, height and RGBA (DESIGN §6). */
  pixelSha256: string;
  /** The PNG's own pixels. */
  width: number;
  height: number;
}

/** The screens table: each tenant's PNGs, once per SHA-256 of the bytes. */
@Injectable()
export class ScreensRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Whether the tenant has the screen's bytes now, and marks it used (at most once an hour, so a
   * screen shot again and again is not written again and again). False: no row, or retention
   * dropped its bytes (then `insert` puts them back).
   */
  async touch(tenant: string, sha256: string, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(
      `SELECT 1 FROM screens WHERE tenant = $1 AND sha256 = $2 AND purged_at IS NULL
         AND last_used_at > now() - interval '1 hour'`,
      [tenant, sha256],
    );
    if (rows.length > 0) return true;
    const touched = updatedRows<unknown>(
      await (manager ?? this.dataSource.manager).query(
        `UPDATE screens SET last_used_at = now()
          WHERE tenant = $1 AND sha256 = $2 AND purged_at IS NULL RETURNING 1`,
        [tenant, sha256],
      ),
    );
    return touched.length > 0;
  }

  async facts(tenant: string, sha256: string, manager?: EntityManager): Promise<PixelFacts | null> {
    const rows: Array<{ pixel_sha256: string; width: number; height: number }> = await (
      manager ?? this.dataSource.manager
    ).query('SELECT pixel_sha256, width, height FROM screens WHERE tenant = $1 AND sha256 = $2', [
      tenant,
      sha256,
    ]);
    if (rows.length === 0) return null;
    return { pixelSha256: rows[0].pixel_sha256, width: rows[0].width, height: rows[0].height };
  }

  /** The stored bytes; `purgedAt` set (and no bytes) once retention dropped them. */
  async png(
    tenant: string,
    sha256: string,
    manager?: EntityManager,
  ): Promise<{ png: Buffer | null; purgedAt: Date | null } | null> {
    const rows: Array<{ png: Buffer | null; purged_at: Date | null }> = await (
      manager ?? this.dataSource.manager
    ).query('SELECT png, purged_at FROM screens WHERE tenant = $1 AND sha256 = $2', [
      tenant,
      sha256,
    ]);
    return rows[0] ? { png: rows[0].png, purgedAt: rows[0].purged_at } : null;
  }

  /**
   * Stores the screen unless the tenant has its bytes already (then nothing changes); bytes that
   * retention dropped are put back.
   */
  async insert(
    tenant: string,
    sha256: string,
    png: Buffer,
    facts: PixelFacts,
    manager?: EntityManager,
  ): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      `INSERT INTO screens (tenant, sha256, png, width, height, pixel_sha256)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant, sha256) DO UPDATE
         SET png = EXCLUDED.png, purged_at = NULL, last_used_at = now()
         WHERE screens.purged_at IS NOT NULL`,
      [tenant, sha256, png, facts.width, facts.height, facts.pixelSha256],
    );
  }
}
