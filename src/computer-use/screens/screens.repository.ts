import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

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

  async has(tenant: string, sha256: string, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(
      'SELECT 1 FROM screens WHERE tenant = $1 AND sha256 = $2',
      [tenant, sha256],
    );
    return rows.length > 0;
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

  async png(tenant: string, sha256: string, manager?: EntityManager): Promise<Buffer | null> {
    const rows: Array<{ png: Buffer }> = await (manager ?? this.dataSource.manager).query(
      'SELECT png FROM screens WHERE tenant = $1 AND sha256 = $2',
      [tenant, sha256],
    );
    return rows[0]?.png ?? null;
  }

  /** Stores the screen unless the tenant has it already (then nothing changes). */
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
       ON CONFLICT (tenant, sha256) DO NOTHING`,
      [tenant, sha256, png, facts.width, facts.height, facts.pixelSha256],
    );
  }
}
