/**
 * A PNG encoder for screens: RGB, filter "Up" on every row, zlib at its fastest level. Screens
 * are mostly flat, so most rows equal the one above (filtered to zeros) and this is several times
 * faster than a general encoder that tries every filter, at a similar size. Deterministic: the
 * same pixels give the same bytes.
 */
import { constants, crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
const FILTER_UP = 2;

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return out;
}

/** Encodes RGBA pixels (alpha ignored: screens are opaque) as an RGB PNG. */
export function encodeScreenPng(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
): Buffer {
  if (rgba.length !== width * height * 4) throw new Error('pixel buffer does not match the size');
  const pixels = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  const stride = width * 3;
  const rowBytes = width * 4;
  const raw = Buffer.alloc(height * (stride + 1));
  let o = 0;
  for (let y = 0; y < height; y++) {
    raw[o++] = FILTER_UP;
    const row = y * rowBytes;
    if (y > 0 && pixels.compare(pixels, row - rowBytes, row, row, row + rowBytes) === 0) {
      o += stride; // the same as the row above: all zeros after the Up filter
      continue;
    }
    if (y === 0) {
      for (let i = row; i < row + rowBytes; i += 4) {
        raw[o++] = pixels[i];
        raw[o++] = pixels[i + 1];
        raw[o++] = pixels[i + 2];
      }
    } else {
      for (let i = row; i < row + rowBytes; i += 4) {
        const j = i - rowBytes;
        raw[o++] = (pixels[i] - pixels[j]) & 0xff;
        raw[o++] = (pixels[i + 1] - pixels[j + 1]) & 0xff;
        raw[o++] = (pixels[i + 2] - pixels[j + 2]) & 0xff;
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  const idat = deflateSync(raw, { level: constants.Z_BEST_SPEED });
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
