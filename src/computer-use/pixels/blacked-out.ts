/**
 * Rectangles blacked out in a screenshot's pixels (an agent's `redact_regions`, issue 17 §2), with
 * what they hid kept only as a hash. Which screenshots are redacted, and what the hashes are for,
 * is the host client's (host-client/redaction.ts).
 */
import { createHash } from 'node:crypto';
import { encodeScreenPng, type Rect } from '@warden/protocol';
import { decodePng, pixelRects, pixelSha256, type PixelRect } from './pixels';

export interface BlackedOut {
  /** A new PNG (RGB, so its pixels decode opaque) with the rectangles black. */
  png: Buffer;
  /** The pixel SHA-256 of the PNG as it came: `realPixelSha256` when given, computed otherwise. */
  realPixelSha256: string;
  /** The pixel SHA-256 of the new PNG's pixels. */
  pixelSha256: string;
  /** SHA-256 of the real pixels under the rectangles. */
  hiddenSha256: string;
}

/**
 * The PNG with `regions` (in the coordinate space `space`, like actions) blacked out. A PNG that
 * does not decode, or a region that is not a rectangle, is refused with a ScreenError.
 */
export function blackOutRegions(
  png: Buffer,
  regions: Rect[],
  space: { width: number; height: number },
  realPixelSha256: string | null,
): BlackedOut {
  const image = decodePng(png);
  const real = realPixelSha256 ?? pixelSha256(image);
  const rects = pixelRects(regions, image, space);
  const hidden = createHash('sha256');
  const rgba = Buffer.from(image.rgba.buffer, image.rgba.byteOffset, image.rgba.length);
  for (const r of rects) {
    for (let y = r.y0; y < r.y1; y++) {
      hidden.update(rgba.subarray((y * image.width + r.x0) * 4, (y * image.width + r.x1) * 4));
    }
  }
  blackOut(rgba, image.width, rects);
  // The new PNG is RGB: its pixels decode opaque, and their hash is taken so.
  for (let a = 3; a < rgba.length; a += 4) rgba[a] = 255;
  return {
    png: encodeScreenPng(rgba, image.width, image.height),
    realPixelSha256: real,
    pixelSha256: pixelSha256(image),
    hiddenSha256: hidden.digest('hex'),
  };
}

function blackOut(rgba: Buffer, width: number, rects: PixelRect[]): void {
  for (const r of rects) {
    for (let y = r.y0; y < r.y1; y++) {
      const row = rgba.subarray((y * width + r.x0) * 4, (y * width + r.x1) * 4);
      row.fill(0);
      for (let a = 3; a < row.length; a += 4) row[a] = 255;
    }
  }
}
