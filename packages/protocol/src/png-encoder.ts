/**
 * The one PNG encoder of Warden and its screen host, for screens: RGB, filter "Up" on every row,
 * zlib at its fastest level. Screens are mostly flat, so most rows equal the one above (filtered
 * to zeros) and this is several times faster than a general encoder that tries every filter, at a
 * similar size. Deterministic: the same pixels give the same bytes. The host encodes its
 * screenshots with it; Warden its redacted screens and the model's downscaled image.
 */
import { promisify } from 'node:util';
import { constants, crc32, deflate, deflateSync } from 'node:zlib';

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

/** Where red, green and blue sit in each 4-byte pixel. */
export type PixelLayout = 'rgba' | 'bgrx' | 'xrgb';
export const PIXEL_CHANNELS: Readonly<Record<PixelLayout, readonly [number, number, number]>> = {
  rgba: [0, 1, 2],
  bgrx: [2, 1, 0], // X11 ZPixmap, 32 bits per pixel, LSBFirst
  xrgb: [1, 2, 3], // the same, MSBFirst
};

/**
 * Encodes screens one after another. Between two screenshots most of a screen stays as it was, so
 * the encoder keeps the last frame's pixels and filtered rows, and filters again only the rows
 * that changed (a row's Up filter depends on it and the row above). The output depends on the
 * pixels alone: a reused row is byte for byte what filtering it again would give.
 */
export class ScreenPngEncoder {
  private previous: {
    pixels: Buffer;
    raw: Buffer;
    png: Buffer;
    width: number;
    height: number;
    layout: PixelLayout;
  } | null = null;

  /**
   * Encodes 4-byte pixels (the fourth byte ignored: screens are opaque) as an RGB PNG. The encoder
   * keeps a reference to `rgba` for the next frame: the caller must not change it afterwards.
   */
  encode(
    rgba: Uint8Array | Uint8ClampedArray,
    width: number,
    height: number,
    layout: PixelLayout = 'rgba',
  ): Buffer {
    const pixels = pixelsOf(rgba, width, height);
    const prev = this.previous;
    const comparable =
      prev !== null && prev.width === width && prev.height === height && prev.layout === layout;
    // A screen that has not changed at all (a form waiting for input) costs one comparison.
    if (comparable && pixels.equals(prev.pixels)) return prev.png;
    const raw = filterRows(pixels, width, height, layout, comparable ? prev : null);
    const png = pngOf(width, height, deflateSync(raw, DEFLATE));
    this.previous = { pixels, raw, png, width, height, layout };
    return png;
  }
}

const DEFLATE = { level: constants.Z_BEST_SPEED };

function pixelsOf(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Buffer {
  if (rgba.length !== width * height * 4) throw new Error('pixel buffer does not match the size');
  return Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
}

/**
 * The rows with the Up filter, each after its filter byte. With `previous` (the last frame, of
 * this size and layout), a row equal to its row there, under a row equal too, is copied from the
 * last frame's filtered rows instead of filtered again.
 */
function filterRows(
  pixels: Buffer,
  width: number,
  height: number,
  layout: PixelLayout,
  previous: { pixels: Buffer; raw: Buffer } | null,
): Buffer {
  const [r, g, b] = PIXEL_CHANNELS[layout];
  const stride = width * 3;
  const rowBytes = width * 4;
  const raw = Buffer.alloc(height * (stride + 1));
  let aboveUnchanged = false;
  let o = 0;
  for (let y = 0; y < height; y++) {
    raw[o++] = FILTER_UP;
    const row = y * rowBytes;
    const unchanged =
      previous !== null &&
      pixels.compare(previous.pixels, row, row + rowBytes, row, row + rowBytes) === 0;
    if (previous && unchanged && (y === 0 || aboveUnchanged)) {
      previous.raw.copy(raw, o, o, o + stride);
      o += stride;
    } else if (y > 0 && pixels.compare(pixels, row - rowBytes, row, row, row + rowBytes) === 0) {
      o += stride; // the same as the row above: all zeros after the Up filter
    } else if (y === 0) {
      for (let i = row; i < row + rowBytes; i += 4) {
        raw[o++] = pixels[i + r];
        raw[o++] = pixels[i + g];
        raw[o++] = pixels[i + b];
      }
    } else {
      for (let i = row; i < row + rowBytes; i += 4) {
        const j = i - rowBytes;
        raw[o++] = (pixels[i + r] - pixels[j + r]) & 0xff;
        raw[o++] = (pixels[i + g] - pixels[j + g]) & 0xff;
        raw[o++] = (pixels[i + b] - pixels[j + b]) & 0xff;
      }
    }
    aboveUnchanged = unchanged;
  }
  return raw;
}

function pngOf(width: number, height: number, idat: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Encodes one screen (see ScreenPngEncoder; this one keeps nothing). */
export function encodeScreenPng(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  layout: PixelLayout = 'rgba',
): Buffer {
  return new ScreenPngEncoder().encode(rgba, width, height, layout);
}

const deflateAsync = promisify(deflate);

/**
 * `encodeScreenPng`, deflating on libuv's thread pool (the rows are filtered here): the same
 * bytes, without holding the event loop for the compression of a large screen.
 */
export async function encodeScreenPngAsync(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  layout: PixelLayout = 'rgba',
): Promise<Buffer> {
  const raw = filterRows(pixelsOf(rgba, width, height), width, height, layout, null);
  return pngOf(width, height, await deflateAsync(raw, DEFLATE));
}
