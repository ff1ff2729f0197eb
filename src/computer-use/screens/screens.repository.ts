import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ASYNC_COMMIT, updatedRows } from '../../sql/sql';

/** What the store keeps of a screen besides its PNG bytes. */
export interface PixelFacts {
  /** SHA-256 over width, height and RGBA (docs/security.md). */
  pixelSha256: string;
  /** The PNG's own pixels. */
  width: number;
  height: number;
}

/** A screen's bytes as stored: the PNG (`keyId` null) or its ciphertext under `keyId`. */
export interface StoredBytes {
  data: Buffer;
  keyId: string | null;
  nonce: Buffer | null;
}

/** A screen to re-encrypt. */
export interface RekeyRow extends StoredBytes {
  tenant: string;
  sha256: string;
}

/** The screens table: each tenant's PNGs, once per SHA-256 of the bytes. */
@Injectable()
export class ScreensRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Whether the tenant has the screen's bytes now, and marks it used (at most once an hour, so a
   * screen shot again and again is not written again and again). False: no row, or retention
   * dropped its bytes (then `put` puts them back).
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
  ): Promise<{ bytes: StoredBytes | null; purgedAt: Date | null } | null> {
    const rows: Array<{
      png: Buffer | null;
      key_id: string | null;
      nonce: Buffer | null;
      purged_at: Date | null;
    }> = await (manager ?? this.dataSource.manager).query(
      'SELECT png, key_id, nonce, purged_at FROM screens WHERE tenant = $1 AND sha256 = $2',
      [tenant, sha256],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      bytes: row.png ? { data: row.png, keyId: row.key_id, nonce: row.nonce } : null,
      purgedAt: row.purged_at,
    };
  }

  /**
   * In one statement: stores the screen; or, where the tenant has it, marks it used as `touch`
   * does (at most once an hour) and puts back bytes retention dropped. Outside a transaction it
   * commits without waiting for the disk (ASYNC_COMMIT): a screen is stored for what refers to it
   * later (a step, an approval), and whatever refers to it durably flushes it to disk first.
   */
  async put(
    tenant: string,
    sha256: string,
    bytes: StoredBytes,
    facts: PixelFacts,
    manager?: EntityManager,
  ): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      `INSERT INTO screens (tenant, sha256, png, key_id, nonce, width, height, pixel_sha256)
       SELECT $1::text, $2::text, $3::bytea, $4::text, $5::bytea, $6::int, $7::int, $8::text
        WHERE ${manager ? 'true' : ASYNC_COMMIT}
       ON CONFLICT (tenant, sha256) DO UPDATE
         SET png = CASE WHEN screens.purged_at IS NULL THEN screens.png ELSE EXCLUDED.png END,
             key_id = CASE WHEN screens.purged_at IS NULL THEN screens.key_id ELSE EXCLUDED.key_id END,
             nonce = CASE WHEN screens.purged_at IS NULL THEN screens.nonce ELSE EXCLUDED.nonce END,
             purged_at = NULL, last_used_at = now()
         WHERE screens.purged_at IS NOT NULL OR screens.last_used_at <= now() - interval '1 hour'`,
      [
        tenant,
        sha256,
        bytes.data,
        bytes.keyId,
        bytes.nonce,
        facts.width,
        facts.height,
        facts.pixelSha256,
      ],
    );
  }

  /**
   * At most `limit` kept screens (of any tenant) not under `keyId` (plaintext ones included),
   * locked for the caller's transaction; rows another rekey holds are skipped.
   */
  async notUnder(manager: EntityManager, keyId: string, limit: number): Promise<RekeyRow[]> {
    const rows: Array<{
      tenant: string;
      sha256: string;
      png: Buffer;
      key_id: string | null;
      nonce: Buffer | null;
    }> = await manager.query(
      `SELECT tenant, sha256, png, key_id, nonce FROM screens
        WHERE png IS NOT NULL AND key_id IS DISTINCT FROM $1
        ORDER BY tenant, sha256
        LIMIT $2
        FOR UPDATE SKIP LOCKED`,
      [keyId, limit],
    );
    return rows.map((r) => ({
      tenant: r.tenant,
      sha256: r.sha256.trim(),
      data: r.png,
      keyId: r.key_id,
      nonce: r.nonce,
    }));
  }

  async rewrite(
    manager: EntityManager,
    tenant: string,
    sha256: string,
    bytes: StoredBytes,
  ): Promise<void> {
    await manager.query(
      'UPDATE screens SET png = $3, key_id = $4, nonce = $5 WHERE tenant = $1 AND sha256 = $2',
      [tenant, sha256, bytes.data, bytes.keyId, bytes.nonce],
    );
  }

  /** Kept screens per key id (`null`: plaintext). */
  async countByKey(): Promise<Array<{ key_id: string | null; screens: number }>> {
    const rows: Array<{ key_id: string | null; screens: string }> = await this.dataSource.query(
      `SELECT key_id, count(*) AS screens FROM screens WHERE png IS NOT NULL
        GROUP BY key_id ORDER BY key_id NULLS FIRST`,
    );
    return rows.map((r) => ({ key_id: r.key_id, screens: Number(r.screens) }));
  }
}
