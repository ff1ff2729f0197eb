/**
 * PNG decoding for screenshots, defensive and fast. Screenshots are nearly always 8-bit RGB or RGBA,
 * not interlaced: those are decoded here (native inflate, then the PNG filters undone in one pass),
 * about five times faster than pngjs. Every other PNG (palette, grey, 16-bit, interlaced,
 * transparency chunk) goes to pngjs. Either way the chunk structure, the CRCs and the size limits
 * are checked first, and the inflated size is bounded, so a small file cannot expand into gigabytes.
 */
import { endianness } from 'node:os';
import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { type Chunks, inflatedSize, readChunks } from './png-structure';
import { ScreenError } from './screen-error';

/** 8-bit RGBA, row by row, no padding: `rgba.length === width * height * 4`. */
export interface Decoded {
  width: number;
  height: number;
  rgba: Buffer;
}

const LITTLE_ENDIAN = endianness() === 'LE';

/** Inflates at most `expected` bytes: a stream that would give more is refused, not expanded. */
function inflateBounded(data: Buffer, expected: number): Buffer {
  let inflated: Buffer;
  try {
    inflated = inflateSync(data, { chunkSize: Math.max(expected, 64), maxOutputLength: expected });
  } catch (error) {
    if (
      error instanceof RangeError ||
      (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
    ) {
      throw new ScreenError(
        'the PNG is damaged: its compressed data holds more pixel data than its size allows',
      );
    }
    throw new ScreenError(
      'the PNG is damaged or cut off: its compressed pixel data does not inflate',
    );
  }
  if (inflated.length !== expected) {
    throw new ScreenError(
      `the PNG is damaged or cut off: its pixel data is ${inflated.length} bytes, ${expected} expected`,
    );
  }
  return inflated;
}

/**
 * The Up filter undone for one row: each byte plus the byte above, modulo 256. Four bytes at a
 * time (a byte-wise add in one 32-bit word: the low seven bits add, the top bits are xor-ed in, so
 * no carry crosses a byte), the rest one by one. About twice as fast as byte by byte.
 */
function addUp(raw: Buffer, view: DataView, r: number, p: number, stride: number): void {
  let i = 0;
  for (; i + 4 <= stride; i += 4) {
    const x = view.getUint32(r + i, true);
    if (x === 0) {
      view.setUint32(r + i, view.getUint32(p + i, true), true);
      continue;
    }
    const q = view.getUint32(p + i, true);
    view.setInt32(r + i, ((x & 0x7f7f7f7f) + (q & 0x7f7f7f7f)) ^ ((x ^ q) & 0x80808080), true);
  }
  for (; i < stride; i++) raw[r + i] += raw[p + i];
}

/**
 * Undoes the PNG filters in place, row after row (each row starts with its filter byte; the row
 * above is already unfiltered). `bpp` is bytes per pixel, `stride` bytes per row without the
 * filter byte. Screens repeat rows a lot (flat backgrounds): an Up row whose deltas are all zero
 * is a copy of the row above, done natively, and flagged in `same` so later steps copy too.
 */
function unfilter(
  raw: Buffer,
  height: number,
  stride: number,
  bpp: number,
  same: Uint8Array,
): void {
  const rowLength = stride + 1;
  const zeros = Buffer.alloc(stride);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  for (let y = 0; y < height; y++) {
    const f = raw[y * rowLength];
    const r = y * rowLength + 1;
    const p = r - rowLength;
    const first = y === 0;
    switch (f) {
      case 0:
        break;
      case 1:
        for (let i = bpp; i < stride; i++) raw[r + i] += raw[r + i - bpp];
        break;
      case 2:
        if (first) break;
        if (raw.compare(zeros, 0, stride, r, r + stride) === 0) {
          raw.copyWithin(r, p, p + stride);
          same[y] = 1;
        } else {
          addUp(raw, view, r, p, stride);
        }
        break;
      case 3:
        if (first) {
          for (let i = bpp; i < stride; i++) raw[r + i] += raw[r + i - bpp] >> 1;
        } else {
          for (let i = 0; i < bpp; i++) raw[r + i] += raw[p + i] >> 1;
          for (let i = bpp; i < stride; i++) raw[r + i] += (raw[r + i - bpp] + raw[p + i]) >> 1;
        }
        break;
      case 4:
        if (first) {
          // Above and above-left are zero: Paeth picks the left neighbour, as Sub does.
          for (let i = bpp; i < stride; i++) raw[r + i] += raw[r + i - bpp];
        } else {
          for (let i = 0; i < bpp; i++) raw[r + i] += raw[p + i];
          for (let i = bpp; i < stride; i++) {
            const a = raw[r + i - bpp];
            const b = raw[p + i];
            const c = raw[p + i - bpp];
            const pa = b > c ? b - c : c - b;
            const pb = a > c ? a - c : c - a;
            const s = a + b - c - c;
            const pc = s < 0 ? -s : s;
            raw[r + i] += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          }
        }
        break;
      default:
        throw new ScreenError(`the PNG is damaged: row ${y} has an unknown filter type ${f}`);
    }
  }
}

/** The fast path's pixel data: inflated and unfiltered, one filter byte before each row. */
interface Unfiltered {
  width: number;
  height: number;
  bpp: 3 | 4;
  stride: number;
  raw: Buffer;
  /** Rows that are copies of the row above (an Up row of zero deltas). */
  same: Uint8Array;
}

/** 8-bit RGB or RGBA, not interlaced, no tRNS: what the fast path decodes. */
function isFast(c: Chunks): boolean {
  const h = c.header;
  return (
    h.bitDepth === 8 &&
    !h.interlaced &&
    (h.colorType === 6 || (h.colorType === 2 && !c.transparency))
  );
}

/** A fast-path PNG's pixel data, inflated and unfiltered in place. */
function unfiltered(c: Chunks): Unfiltered {
  const { width, height } = c.header;
  const bpp = c.header.colorType === 6 ? 4 : 3;
  const stride = width * bpp;
  const raw = inflateBounded(
    c.idat.length === 1 ? c.idat[0] : Buffer.concat(c.idat, c.idatBytes),
    (stride + 1) * height,
  );
  const same = new Uint8Array(height);
  unfilter(raw, height, stride, bpp, same);
  return { width, height, bpp, stride, raw, same };
}

/**
 * Rows `y0` up to `y1` as RGBA into `out` from its start (`out` must start at a multiple of four
 * bytes, as buffers from Buffer.allocUnsafeSlow do). A row flagged `same` copies the row before it
 * in `out` when that row is there too.
 */
function expandRows(u: Unfiltered, y0: number, y1: number, out: Buffer): void {
  const { width, stride, raw, same } = u;
  if (u.bpp === 4) {
    for (let y = y0; y < y1; y++) {
      const r = y * (stride + 1) + 1;
      raw.copy(out, (y - y0) * stride, r, r + stride);
    }
  } else if (LITTLE_ENDIAN) {
    // One 32-bit store per pixel: R, G, B, 255 in memory order. Four pixels (twelve bytes, three
    // 32-bit loads) at a time, the rest one by one.
    const words = new Uint32Array(out.buffer, out.byteOffset, (y1 - y0) * width);
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    let o = 0;
    for (let y = y0; y < y1; y++) {
      if (same[y] && y > y0) {
        words.copyWithin(o, o - width, o);
        o += width;
        continue;
      }
      let i = y * (stride + 1) + 1;
      const end = i + stride;
      for (; i + 12 <= end; i += 12) {
        const w0 = view.getUint32(i, true);
        const w1 = view.getUint32(i + 4, true);
        const w2 = view.getUint32(i + 8, true);
        words[o++] = w0 | 0xff000000;
        words[o++] = (w0 >>> 24) | (w1 << 8) | 0xff000000;
        words[o++] = (w1 >>> 16) | (w2 << 16) | 0xff000000;
        words[o++] = (w2 >>> 8) | 0xff000000;
      }
      for (; i < end; i += 3) {
        words[o++] = (raw[i] | (raw[i + 1] << 8) | (raw[i + 2] << 16) | 0xff000000) >>> 0;
      }
    }
  } else {
    let o = 0;
    for (let y = y0; y < y1; y++) {
      let i = y * (stride + 1) + 1;
      const end = i + stride;
      while (i < end) {
        out[o] = raw[i];
        out[o + 1] = raw[i + 1];
        out[o + 2] = raw[i + 2];
        out[o + 3] = 255;
        o += 4;
        i += 3;
      }
    }
  }
}

function decodeFast(c: Chunks): Decoded {
  const u = unfiltered(c);
  // Never from the shared pool: the buffer starts at offset 0, so Uint32 views of it work.
  const rgba = Buffer.allocUnsafeSlow(u.width * u.height * 4);
  expandRows(u, 0, u.height, rgba);
  return { width: u.width, height: u.height, rgba };
}

function decodeWithPngjs(png: Buffer, c: Chunks): Decoded {
  // pngjs bounds the inflate of non-interlaced images itself, but not of interlaced ones.
  if (c.header.interlaced) {
    inflateBounded(Buffer.concat(c.idat, c.idatBytes), inflatedSize(c.header));
  }
  let decoded: PNG;
  try {
    decoded = PNG.sync.read(png);
  } catch (error) {
    throw new ScreenError(
      `the PNG cannot be decoded: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const { width, height, data } = decoded;
  if (
    width !== c.header.width ||
    height !== c.header.height ||
    data.length !== width * height * 4
  ) {
    throw new ScreenError('the PNG decoded to a size other than its header says');
  }
  return { width, height, rgba: data };
}

/**
 * Decodes a PNG to 8-bit RGBA. Refuses, with a ScreenError a person can read, anything that is not
 * a PNG, is damaged or cut off, or is larger than 8192x8192 or 64 MiB decoded.
 */
export function decodePng(png: Buffer): Decoded {
  const chunks = readChunks(png);
  return isFast(chunks) ? decodeFast(chunks) : decodeWithPngjs(png, chunks);
}
/** RGBA handed to a visitor at a time: about 256 KiB, so that it is still in the CPU's cache. */
const BAND_BYTES = 256 * 1024;

/**
 * Decodes a PNG as decodePng does (the same checks, the same pixels) but hands the RGBA to `visit`
 * a band of whole rows at a time, top to bottom, in one reused buffer that is valid only during
 * the call: for work that reads each pixel once (a hash) without the whole image in memory.
 */
export function visitPngRows(
  png: Buffer,
  visit: (rgba: Buffer, width: number, height: number) => void,
): { width: number; height: number } {
  const chunks = readChunks(png);
  if (!isFast(chunks)) {
    const decoded = decodeWithPngjs(png, chunks);
    visit(decoded.rgba, decoded.width, decoded.height);
    return { width: decoded.width, height: decoded.height };
  }
  const u = unfiltered(chunks);
  const band = Math.max(1, Math.floor(BAND_BYTES / (u.width * 4)));
  const buffer = Buffer.allocUnsafeSlow(Math.min(band, u.height) * u.width * 4);
  for (let y = 0; y < u.height; y += band) {
    const y1 = Math.min(u.height, y + band);
    expandRows(u, y, y1, buffer);
    visit(buffer.subarray(0, (y1 - y) * u.width * 4), u.width, u.height);
  }
  return { width: u.width, height: u.height };
}
