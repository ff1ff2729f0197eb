/**
 * The frame hash of docs/screen-host.md (`X-Frame-SHA256`, `X-Expect-Frame`), which is also the pixel
 * SHA-256 of §6: SHA-256 over the width and the height as two big-endian uint32, then the RGBA
 * bytes, row by row from the top. Two frames with the same pixels have the same hash whatever PNG
 * encoded them.
 */
import { createHash, type Hash } from 'node:crypto';

const MAX_UINT32 = 0xffff_ffff;

/** The 8 bytes the hash starts with: width and height as two big-endian uint32. */
export function frameHeader(width: number, height: number): Buffer {
  for (const [name, value] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || value > MAX_UINT32) {
      throw new RangeError(`the frame's ${name} must be an integer from 0 to ${MAX_UINT32}`);
    }
  }
  const header = Buffer.allocUnsafe(8);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  return header;
}

/**
 * A SHA-256 that has been given the frame's header: give it the RGBA bytes (all of them, top row
 * first, in as many pieces as suits the caller), then `digest('hex')`. For hashing while
 * decoding, a band of rows at a time, without the whole frame in memory.
 */
export function startFrameHash(width: number, height: number): Hash {
  return createHash('sha256').update(frameHeader(width, height));
}

/** The frame hash (hex) of `width` × `height` pixels, `rgba` holding 4 bytes a pixel. */
export function frameSha256(width: number, height: number, rgba: Uint8Array): string {
  const hash = startFrameHash(width, height);
  if (rgba.length !== width * height * 4) {
    throw new RangeError(
      `a ${width}x${height} frame has ${width * height * 4} RGBA bytes, not ${rgba.length}`,
    );
  }
  return hash.update(rgba).digest('hex');
}
