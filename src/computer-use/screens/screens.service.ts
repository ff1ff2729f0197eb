import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Lru } from '../../common/lru';
import { pngPixelFacts, sha256Hex } from '../pixels/pixels';
import { checkPngData } from '../pixels/png-data-check';
import { checkPngStructure } from '../pixels/png-structure';
import { ScreenError } from '../pixels/screen-error';
import { openScreen, sealScreen } from './screen-crypto';
import { ScreenKeys } from './screen-keys';
import type { Screenshot } from '../host-client/screen-host.client';
import { PixelFacts, ScreensRepository, StoredBytes } from './screens.repository';

export interface StoredScreen {
  /** SHA-256 of the PNG bytes: the screen's address. */
  sha256: string;
  /** SHA-256 over width, height and RGBA (docs/security.md). */
  pixelSha256: string;
  /** The PNG's own pixels. */
  width: number;
  height: number;
}

/** A screenshot to store: its PNG, and its SHA-256 and pixel hash when the caller has them. */
export type ScreenToStore = Pick<Screenshot, 'png'> &
  Partial<Pick<Screenshot, 'pngSha256' | 'pixelSha256'>>;

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * How far a new screen's PNG is checked before it is stored: `data` inflates its compressed pixel
 * data (Adler-32, exact size, a known filter on every row; about 3 ms of CPU for 1280x800),
 * `structure` checks everything else (signature, header and limits, every chunk and CRC, the end
 * marker) without inflating. Either refuses with a ScreenError.
 */
export type ScreenCheck = 'data' | 'structure';

/**
 * The content-addressed screen store (docs/operations.md, docs/api.md): each tenant's screenshots in PostgreSQL, once
 * per distinct SHA-256 of the PNG bytes. A new screen's pixel hash is its host's frame hash (or,
 * without one, from decoding it); a process-wide LRU from PNG SHA-256 to what is known of it skips
 * the checks for screens seen before (a settled screen is shot again and again). A read's screen is
 * only stored (its structure checked): its compressed data is inflated where Warden uses it or a
 * person must see it (checkData), and pixels are decoded where they are used.
 */
@Injectable()
export class ScreensService {
  private readonly known = new Lru<string, PixelFacts>(512);
  /** Screens whose data this process inflated: null when it inflates, or why it does not. */
  private readonly inflated = new Lru<string, string | null>(1024);

  constructor(
    private readonly screens: ScreensRepository,
    private readonly keys: ScreenKeys,
  ) {}

  /**
   * Stores the screenshot unless this tenant has it already. Pass a transaction's manager to make
   * the row part of it. A new screen is checked as `check` says (default `data`); a PNG that fails
   * is refused with a ScreenError and nothing is stored. Without a frame hash from its host, a PNG
   * is decoded for its pixel hash.
   */
  async store(
    tenant: string,
    screenshot: ScreenToStore,
    options: { manager?: EntityManager; check?: ScreenCheck } = {},
  ): Promise<StoredScreen> {
    const { manager, check = 'data' } = options;
    const sha256 = screenshot.pngSha256 ?? sha256Hex(screenshot.png);
    let known = this.known.get(sha256) ?? null;
    // Facts that take an inflate or a decode to find are looked up first; a read's are not (its
    // header and its host's frame hash).
    if (!known && (check === 'data' || !screenshot.pixelSha256)) {
      known = await this.screens.facts(tenant, sha256, manager);
      if (known) this.known.set(sha256, known);
    }
    if (known) {
      if (check === 'data') await this.checkData({ sha256, png: screenshot.png });
      if (!(await this.screens.touch(tenant, sha256, manager))) {
        await this.screens.put(
          tenant,
          sha256,
          this.seal(tenant, sha256, screenshot.png),
          known,
          manager,
        );
      }
      return { sha256, ...known };
    }
    const found = await this.factsOf(sha256, screenshot, check);
    await this.screens.put(
      tenant,
      sha256,
      this.seal(tenant, sha256, screenshot.png),
      found,
      manager,
    );
    this.known.set(sha256, found);
    return { sha256, ...found };
  }

  /**
   * Inflates the screen's compressed pixel data, unless this process has done so for these bytes:
   * a ScreenError when it is damaged. For a screen a person must be able to see (a held write's)
   * whose pixels nothing decoded.
   */
  async checkData(screen: { sha256: string; png: Buffer }): Promise<void> {
    const damage = await this.damage(screen);
    if (damage !== null) throw new ScreenError(damage);
  }

  /**
   * Why a stored screen's data does not inflate (a read's screen is stored with its structure
   * checked only), or null when it does: for whoever shows it, whose browser may draw it in part.
   */
  async damage(screen: { sha256: string; png: Buffer }): Promise<string | null> {
    const seen = this.inflated.get(screen.sha256);
    if (seen !== undefined) return seen;
    let damage: string | null = null;
    try {
      await checkPngData(screen.png);
    } catch (error) {
      if (!(error instanceof ScreenError)) throw error;
      damage = error.message;
    }
    this.inflated.set(screen.sha256, damage);
    return damage;
  }

  /** A new screen's facts, checked as `check` says (see factsOf); what the check found is kept. */
  private async factsOf(
    sha256: string,
    screenshot: ScreenToStore,
    check: ScreenCheck,
  ): Promise<PixelFacts> {
    const facts = await factsOf(screenshot, check);
    if (check === 'data' || !screenshot.pixelSha256) this.inflated.set(sha256, null);
    return facts;
  }

  /**
   * The exact PNG bytes, or null when this tenant has no such screen or retention dropped its
   * bytes (`read` tells the two apart).
   */
  async get(tenant: string, sha256: string, manager?: EntityManager): Promise<Buffer | null> {
    const found = await this.read(tenant, sha256, manager);
    return found && 'png' in found ? found.png : null;
  }

  /** The PNG bytes, or when retention dropped them; null when this tenant has no such screen. */
  async read(
    tenant: string,
    sha256: string,
    manager?: EntityManager,
  ): Promise<{ png: Buffer } | { purgedAt: Date } | null> {
    if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) return null;
    const row = await this.screens.png(tenant, sha256, manager);
    if (!row) return null;
    if (row.bytes) return { png: this.open(tenant, sha256, row.bytes) };
    return { purgedAt: row.purgedAt ?? new Date(0) };
  }

  /** The bytes to store: the PNG under the current screen key, or the PNG itself without keys. */
  seal(tenant: string, sha256: string, png: Buffer): StoredBytes {
    const keyring = this.keys.keyring();
    if (!keyring) return { data: png, keyId: null, nonce: null };
    return sealScreen(keyring, tenant, sha256, png);
  }

  /** The PNG of stored bytes; a ScreenCryptoError (fail closed) when they do not decrypt. */
  open(tenant: string, sha256: string, bytes: StoredBytes): Buffer {
    if (bytes.keyId === null) return bytes.data;
    return openScreen(this.keys.keyring(), tenant, sha256, {
      keyId: bytes.keyId,
      nonce: bytes.nonce ?? Buffer.alloc(0),
      data: bytes.data,
    });
  }
}

/**
 * A new screen's size and pixel hash, checked as `check` says: from the PNG's header and the hash
 * its host sent (issue 18 §1: the read path makes no pixels), or, without a hash, from decoding it
 * (10 to 40 ms), which checks everything.
 */
async function factsOf(screenshot: ScreenToStore, check: ScreenCheck): Promise<PixelFacts> {
  if (!screenshot.pixelSha256) return pngPixelFacts(screenshot.png);
  const { width, height } =
    check === 'data' ? await checkPngData(screenshot.png) : checkPngStructure(screenshot.png);
  return { width, height, pixelSha256: screenshot.pixelSha256 };
}
