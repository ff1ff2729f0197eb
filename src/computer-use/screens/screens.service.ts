import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { pngPixelFacts, sha256Hex } from './pixels';
import type { Screenshot } from './screen-host.client';

export interface StoredScreen {
  /** SHA-256 of the PNG bytes: the screen's address. */
  sha256: string;
  /** SHA-256 over width, height and RGBA (DESIGN §6). */
  pixelSha256: string;
  /** The PNG's own pixels. */
  width: number;
  height: number;
}

/** A screenshot to store: its PNG, and its SHA-256 when the caller has it already. */
export type ScreenToStore = Pick<Screenshot, 'png'> & Partial<Pick<Screenshot, 'pngSha256'>>;

type PixelFacts = Omit<StoredScreen, 'sha256'>;

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A small least-recently-used map. */
class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }
}

/**
 * The content-addressed screen store (DESIGN §2, §9): each tenant's screenshots in PostgreSQL, once
 * per distinct SHA-256 of the PNG bytes. The pixel hash needs a decode (10 to 40 ms), so it is
 * computed once per new screen; a process-wide LRU from PNG SHA-256 to pixel facts skips the decode
 * for screens seen before (a settled screen is shot again and again).
 */
@Injectable()
export class ScreensService {
  private readonly facts = new Lru<string, PixelFacts>(512);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Stores the screenshot unless this tenant has it already. Pass a transaction's manager to make
   * the row part of it. A PNG that does not decode is refused with a ScreenError.
   */
  async store(
    tenant: string,
    screenshot: ScreenToStore,
    manager?: EntityManager,
  ): Promise<StoredScreen> {
    const m = manager ?? this.dataSource.manager;
    const sha256 = screenshot.pngSha256 ?? sha256Hex(screenshot.png);
    const known = this.facts.get(sha256);
    if (known) {
      const rows: unknown[] = await m.query(
        'SELECT 1 FROM screens WHERE tenant = $1 AND sha256 = $2',
        [tenant, sha256],
      );
      if (rows.length > 0) return { sha256, ...known };
      await this.insert(m, tenant, sha256, screenshot.png, known);
      return { sha256, ...known };
    }
    const rows: Array<{ pixel_sha256: string; width: number; height: number }> = await m.query(
      'SELECT pixel_sha256, width, height FROM screens WHERE tenant = $1 AND sha256 = $2',
      [tenant, sha256],
    );
    if (rows.length > 0) {
      const facts = {
        pixelSha256: rows[0].pixel_sha256,
        width: rows[0].width,
        height: rows[0].height,
      };
      this.facts.set(sha256, facts);
      return { sha256, ...facts };
    }
    const facts = pngPixelFacts(screenshot.png);
    this.facts.set(sha256, facts);
    await this.insert(m, tenant, sha256, screenshot.png, facts);
    return { sha256, ...facts };
  }

  /** The exact PNG bytes, or null when this tenant has no such screen. */
  async get(tenant: string, sha256: string, manager?: EntityManager): Promise<Buffer | null> {
    if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) return null;
    const m = manager ?? this.dataSource.manager;
    const rows: Array<{ png: Buffer }> = await m.query(
      'SELECT png FROM screens WHERE tenant = $1 AND sha256 = $2',
      [tenant, sha256],
    );
    return rows.length > 0 ? rows[0].png : null;
  }

  private async insert(
    m: EntityManager,
    tenant: string,
    sha256: string,
    png: Buffer,
    facts: PixelFacts,
  ): Promise<void> {
    await m.query(
      `INSERT INTO screens (tenant, sha256, png, width, height, pixel_sha256)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant, sha256) DO NOTHING`,
      [tenant, sha256, png, facts.width, facts.height, facts.pixelSha256],
    );
  }
}
