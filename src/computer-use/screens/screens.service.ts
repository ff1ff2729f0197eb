import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Lru } from '../../common/lru';
import { pngPixelFacts, sha256Hex } from './pixels';
import { checkPngData } from './png-decoder';
import { openScreen, sealScreen } from './screen-crypto';
import { ScreenKeys } from './screen-keys';
import type { Screenshot } from './screen-host.client';
import { PixelFacts, ScreensRepository, StoredBytes } from './screens.repository';

export interface StoredScreen {
  /** SHA-256 of the PNG bytes: the screen's address. */
  sha256: string;
  /** SHA-256 over width, height and RGBA (DESIGN §6). */
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
 * The content-addressed screen store (DESIGN §2, §9): each tenant's screenshots in PostgreSQL, once
 * per distinct SHA-256 of the PNG bytes. The pixel hash needs a decode (10 to 40 ms), so it is
 * computed once per new screen; a process-wide LRU from PNG SHA-256 to pixel facts skips the decode
 * for screens seen before (a settled screen is shot again and again).
 */
@Injectable()
export class ScreensService {
  private readonly facts = new Lru<string, PixelFacts>(512);

  constructor(
    private readonly screens: ScreensRepository,
    private readonly keys: ScreenKeys,
  ) {}

  /**
   * Stores the screenshot unless this tenant has it already. Pass a transaction's manager to make
   * the row part of it. A PNG is decoded only when its pixel hash is not known (no frame hash from
   * its host); one that does not decode, or would not, is refused with a ScreenError.
   */
  async store(
    tenant: string,
    screenshot: ScreenToStore,
    manager?: EntityManager,
  ): Promise<StoredScreen> {
    const sha256 = screenshot.pngSha256 ?? sha256Hex(screenshot.png);
    const known = this.facts.get(sha256);
    if (known) {
      if (!(await this.screens.touch(tenant, sha256, manager))) {
        await this.screens.insert(
          tenant,
          sha256,
          this.seal(tenant, sha256, screenshot.png),
          known,
          manager,
        );
      }
      return { sha256, ...known };
    }
    const stored = await this.screens.facts(tenant, sha256, manager);
    if (stored) {
      this.facts.set(sha256, stored);
      if (!(await this.screens.touch(tenant, sha256, manager))) {
        await this.screens.insert(
          tenant,
          sha256,
          this.seal(tenant, sha256, screenshot.png),
          stored,
          manager,
        );
      }
      return { sha256, ...stored };
    }
    const facts = await factsOf(screenshot);
    this.facts.set(sha256, facts);
    await this.screens.insert(
      tenant,
      sha256,
      this.seal(tenant, sha256, screenshot.png),
      facts,
      manager,
    );
    return { sha256, ...facts };
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
 * A new screen's size and pixel hash: from the PNG's header and the hash its host sent, the PNG
 * checked but not decoded (issue 18 §1: the read path makes no pixels), or, without a hash, from
 * decoding it (10 to 40 ms).
 */
async function factsOf(screenshot: ScreenToStore): Promise<PixelFacts> {
  if (!screenshot.pixelSha256) return pngPixelFacts(screenshot.png);
  // Not decoded, but refused just the same when it could not be.
  const { width, height } = await checkPngData(screenshot.png);
  return { width, height, pixelSha256: screenshot.pixelSha256 };
}
