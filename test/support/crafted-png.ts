import fc from 'fast-check';
import { crc32, deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';

/** PNGs made for tests: by hand (any colour type, interlace, damage) or by pngjs. */

export const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export interface Crafted {
  width: number;
  height: number;
  colorType: number;
  bitDepth: number;
  interlace?: 0 | 1;
  /** The inflated scanlines, filter bytes included. */
  raw: Buffer;
  before?: Buffer[];
}

/** A PNG built by hand, for the cases pngjs cannot write (palette, 16-bit, interlaced, damage). */
export function craft(c: Crafted): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(c.width, 0);
  ihdr.writeUInt32BE(c.height, 4);
  ihdr[8] = c.bitDepth;
  ihdr[9] = c.colorType;
  ihdr[12] = c.interlace ?? 0;
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    ...(c.before ?? []),
    chunk('IDAT', deflateSync(c.raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Scanlines with filter byte 0 from per-row sample bytes. */
export function rows(lines: number[][]): Buffer {
  return Buffer.concat(lines.map((line) => Buffer.from([0, ...line])));
}

export function encode(width: number, height: number, rgba: Buffer, options: object = {}): Buffer {
  const png = new PNG({ width, height });
  rgba.copy(png.data);
  return PNG.sync.write(png, { ...options });
}

/** Small random RGBA images, opaque or not. */
export const image = fc
  .record({ width: fc.integer({ min: 1, max: 24 }), height: fc.integer({ min: 1, max: 24 }) })
  .chain(({ width, height }) =>
    fc.record({
      width: fc.constant(width),
      height: fc.constant(height),
      rgba: fc.uint8Array({ minLength: width * height * 4, maxLength: width * height * 4 }),
      opaque: fc.boolean(),
    }),
  )
  .map(({ width, height, rgba, opaque }) => {
    const data = Buffer.from(rgba);
    if (opaque) for (let i = 3; i < data.length; i += 4) data[i] = 255;
    return { width, height, rgba: data, opaque };
  });

/**
 * The PNG with bytes in the middle of its image data changed and the chunk's CRC made right again:
 * damage that only inflating the data shows (a broken encoder's).
 */
export function corruptIdat(png: Buffer): Buffer {
  const out = Buffer.from(png);
  for (let at = 8; at < out.length;) {
    const length = out.readUInt32BE(at);
    if (out.toString('latin1', at + 4, at + 8) === 'IDAT') {
      const data = at + 8;
      for (let i = Math.floor(length / 3); i < Math.floor(length / 3) + 16; i++)
        out[data + i] ^= 0x5a;
      out.writeUInt32BE(crc32(out.subarray(at + 4, data + length)), data + length);
      return out;
    }
    at += 12 + length;
  }
  throw new Error('no IDAT chunk');
}
