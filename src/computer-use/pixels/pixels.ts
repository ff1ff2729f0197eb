/**
 * Screens as pixels (docs/security.md), pure: decoding, the pixel hash, the volatile mask and the
 * stale-screen comparison. Equal PNG bytes mean equal pixels, so bytes are compared first; only
 * different bytes are decoded, and then size and RGBA decide (a re-encoding is not a change).
 */
import { frameSha256, startFrameHash, type Rect } from '@warden/protocol';
import { sha256Hex } from '../../common/sha256';
import type { Hash } from 'node:crypto';
import { decodePng, visitPngRows, type Decoded } from './png-decoder';
import { ScreenError } from './screen-error';
import { fillBits, VolatileMask } from './volatile-mask';

export { decodePng } from './png-decoder';
export { readPngHeader, MAX_DECODED_BYTES, MAX_SIDE } from './png-structure';
export type { Decoded } from './png-decoder';
export type { PngHeader } from './png-structure';
export { VolatileMask } from './volatile-mask';
export { ScreenError } from './screen-error';

/**
 * The pixel SHA-256 (hex) of docs/security.md: the protocol's frame hash (§7), over width and height
 * (u32 BE) and the RGBA bytes.
 */
export function pixelSha256(decoded: Decoded): string {
  return frameSha256(decoded.width, decoded.height, decoded.rgba);
}

/**
 * A PNG's pixel SHA-256 (as pixelSha256(decodePng(png))) and size, without the decoded image in
 * memory: the pixels are hashed a band of rows at a time while the CPU's cache still holds them.
 * A PNG that does not decode is refused with a ScreenError.
 */
export function pngPixelFacts(png: Buffer): { width: number; height: number; pixelSha256: string } {
  let hash: Hash | null = null;
  const { width, height } = visitPngRows(png, (rgba, w, h) => {
    hash ??= startFrameHash(w, h);
    hash.update(rgba);
  });
  const digest = (hash ?? startFrameHash(width, height)).digest('hex');
  return { width, height, pixelSha256: digest };
}

export { sha256Hex };

/** A Uint32 view of the pixels (one element per pixel); copies only if the buffer is unaligned. */
export function pixelWords(image: Decoded): Uint32Array {
  const { rgba } = image;
  if (rgba.length !== image.width * image.height * 4) {
    throw new ScreenError(
      `the pixels do not match the size ${image.width}x${image.height} (${rgba.length} bytes)`,
    );
  }
  if (rgba.byteOffset % 4 === 0) {
    return new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length / 4);
  }
  return new Uint32Array(Uint8Array.from(rgba).buffer);
}

export interface LearnOptions {
  /** Also mask this many pixels around each moving pixel (default 0: exactly the pixels that moved). */
  margin?: number;
}

/**
 * The pixels that changed among several samples of one screen taken over about a second. One
 * sample gives an empty mask. The samples must have one size: a screen that changed size did not
 * just blink. They are taken one at a time from the iterable, so a caller that decodes them lazily
 * holds two decoded frames at once, not all of them.
 */
export function learnVolatileMask(
  samples: Iterable<Decoded>,
  options: LearnOptions = {},
): VolatileMask {
  const each = samples[Symbol.iterator]();
  const head = each.next();
  if (head.done) throw new ScreenError('learning a volatile mask needs at least one sample');
  const first = head.value;
  const { width, height } = first;
  const bits = new Uint8Array(Math.ceil((width * height) / 8));
  const base = pixelWords(first);
  const rowBytes = width * 4;
  for (let next = each.next(); !next.done; next = each.next()) {
    const sample = next.value;
    if (sample.width !== width || sample.height !== height) {
      throw new ScreenError(
        `the samples differ in size (${width}x${height} and ${sample.width}x${sample.height}): the screen changed, it did not just blink`,
      );
    }
    if (sample.rgba.equals(first.rgba)) continue;
    const words = pixelWords(sample);
    for (let y = 0; y < height; y++) {
      const start = y * rowBytes;
      if (first.rgba.compare(sample.rgba, start, start + rowBytes, start, start + rowBytes) === 0) {
        continue;
      }
      const row = y * width;
      for (let x = 0; x < width; x++) {
        const i = row + x;
        if (base[i] !== words[i]) bits[i >> 3] |= 1 << (i & 7);
      }
    }
  }
  const margin = Math.max(0, Math.floor(options.margin ?? 0));
  return VolatileMask.fromBits(
    width,
    height,
    margin > 0 ? grow(bits, width, height, margin) : bits,
  );
}

/** Each set pixel also sets the square of `margin` pixels around it. */
function grow(bits: Uint8Array, width: number, height: number, margin: number): Uint8Array {
  const out = new Uint8Array(bits.length);
  for (let byte = 0; byte < bits.length; byte++) {
    if (bits[byte] === 0) continue;
    for (let bit = 0; bit < 8; bit++) {
      if ((bits[byte] & (1 << bit)) === 0) continue;
      const i = byte * 8 + bit;
      const x = i % width;
      const y = (i - x) / width;
      const x0 = Math.max(0, x - margin);
      const x1 = Math.min(width, x + margin + 1);
      for (let yy = Math.max(0, y - margin); yy < Math.min(height, y + margin + 1); yy++) {
        fillBits(out, yy * width + x0, yy * width + x1);
      }
    }
  }
  return out;
}

export interface CompareOptions {
  /** Pixels that moved on their own when the write was held. */
  mask?: VolatileMask | null;
  /** The admin's `ignore_regions`. */
  ignoreRegions?: Rect[];
  /**
   * The coordinate space `ignoreRegions` are in (the screen host's `X-Screen-Width/Height`) when it
   * differs from the PNG's pixels (HiDPI). Default: the PNG's pixels.
   */
  regionSpace?: { width: number; height: number };
}

export interface ScreenComparison {
  same: boolean;
  /** Pixels that differ outside the mask and the ignore regions. */
  changedPixels: number;
  /** One sentence for the step's record and the approver. */
  why: string;
}

/** A PNG (compared byte-wise first) or already decoded pixels. */
export type ScreenImage = Buffer | Decoded;

export interface PixelRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export function pixelRects(
  regions: Rect[],
  image: { width: number; height: number },
  space: { width: number; height: number } | undefined,
): PixelRect[] {
  const sx = space ? image.width / space.width : 1;
  const sy = space ? image.height / space.height : 1;
  if (!Number.isFinite(sx) || !Number.isFinite(sy) || sx <= 0 || sy <= 0) {
    throw new ScreenError('the coordinate space of the ignore regions must be positive');
  }
  const out: PixelRect[] = [];
  regions.forEach((r, n) => {
    const values = [r?.x, r?.y, r?.width, r?.height];
    if (
      !values.every((v) => typeof v === 'number' && Number.isFinite(v)) ||
      r.width < 0 ||
      r.height < 0
    ) {
      throw new ScreenError(`ignore region ${n} is not a rectangle {x, y, width, height}`);
    }
    const x0 = Math.max(0, Math.floor(r.x * sx));
    const y0 = Math.max(0, Math.floor(r.y * sy));
    const x1 = Math.min(image.width, Math.ceil((r.x + r.width) * sx));
    const y1 = Math.min(image.height, Math.ceil((r.y + r.height) * sy));
    if (x1 > x0 && y1 > y0) out.push({ x0, y0, x1, y1 });
  });
  return out;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Is the fresh screen the one the approver saw? Equal PNG bytes: yes, without decoding. Otherwise
 * the size and every pixel outside the volatile mask and the ignore regions must be equal.
 */
export function compareScreens(
  held: ScreenImage,
  fresh: ScreenImage,
  options: CompareOptions = {},
): ScreenComparison {
  if (Buffer.isBuffer(held) && Buffer.isBuffer(fresh) && held.equals(fresh)) {
    return { same: true, changedPixels: 0, why: 'identical PNG bytes' };
  }
  const a = Buffer.isBuffer(held) ? decodePng(held) : held;
  const b = Buffer.isBuffer(fresh) ? decodePng(fresh) : fresh;
  if (a.width !== b.width || a.height !== b.height) {
    return {
      same: false,
      changedPixels: Math.max(a.width * a.height, b.width * b.height),
      why: `the screen's size changed from ${a.width}x${a.height} to ${b.width}x${b.height}`,
    };
  }
  const { width, height } = a;
  const mask = options.mask ?? null;
  if (mask && (mask.width !== width || mask.height !== height)) {
    throw new ScreenError(
      `the volatile mask is for a ${mask.width}x${mask.height} screen, the held screen is ${width}x${height}`,
    );
  }
  const regions = pixelRects(options.ignoreRegions ?? [], a, options.regionSpace);
  const excluded = describeExclusions(mask, regions);
  if (a.rgba.equals(b.rgba)) {
    return { same: true, changedPixels: 0, why: 'same pixels (the PNG encoding differs)' };
  }

  const wa = pixelWords(a);
  const wb = pixelWords(b);
  const bits = mask && mask.size > 0 ? mask.bits : null;
  const rowBytes = width * 4;
  const active: PixelRect[] = [];
  let changed = 0;
  let ignored = 0;
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    const start = y * rowBytes;
    if (a.rgba.compare(b.rgba, start, start + rowBytes, start, start + rowBytes) === 0) continue;
    active.length = 0;
    for (const r of regions) if (y >= r.y0 && y < r.y1) active.push(r);
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const i = row + x;
      if (wa[i] === wb[i]) continue;
      let skip = bits !== null && (bits[i >> 3] & (1 << (i & 7))) !== 0;
      for (let k = 0; !skip && k < active.length; k++) {
        skip = x >= active[k].x0 && x < active[k].x1;
      }
      if (skip) {
        ignored++;
        continue;
      }
      changed++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      maxY = y;
    }
  }
  if (changed === 0) {
    return {
      same: true,
      changedPixels: 0,
      why: `same pixels outside ${excluded}; ${plural(ignored, 'pixel')} changed inside`,
    };
  }
  const where =
    changed === 1 ? `at (${minX}, ${minY})` : `between (${minX}, ${minY}) and (${maxX}, ${maxY})`;
  return {
    same: false,
    changedPixels: changed,
    why: `${plural(changed, 'pixel')} changed ${where}${excluded === 'nothing' ? '' : `, outside ${excluded}`}`,
  };
}

function describeExclusions(mask: VolatileMask | null, regions: PixelRect[]): string {
  const parts: string[] = [];
  if (mask) parts.push(`the volatile mask (${plural(mask.size, 'pixel')})`);
  if (regions.length > 0) parts.push(plural(regions.length, 'ignore region'));
  return parts.length > 0 ? parts.join(' and ') : 'nothing';
}
