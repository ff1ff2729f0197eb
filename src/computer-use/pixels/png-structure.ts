/**
 * A PNG's structure, read and checked without inflating anything: the signature, the header and
 * the size limits, the chunks with their lengths and CRCs, and how much pixel data the header
 * promises. The decoder (png-decoder.ts) and the data check (png-data-check.ts) start here.
 */
import { crc32 } from 'node:zlib';
import { ScreenError } from './screen-error';

export const MAX_SIDE = 8192;
export const MAX_DECODED_BYTES = 64 * 1024 * 1024;

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
/** Adam7: x start, y start, x step, y step of each pass. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

function kib(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
    : `${Math.ceil(bytes / 1024)} KiB`;
}

export function hasPngSignature(data: Buffer): boolean {
  return data.length >= 8 && data.subarray(0, 8).equals(PNG_SIGNATURE);
}

/**
 * Reads and checks the IHDR chunk only (no decoding): the signature, the header's CRC, the size
 * limits and a valid colour type and bit depth.
 */
export function readPngHeader(png: Buffer): PngHeader {
  if (!Buffer.isBuffer(png) || png.length === 0) throw new ScreenError('the screenshot is empty');
  if (!hasPngSignature(png)) {
    throw new ScreenError(
      'the screenshot is not a PNG (its first bytes are not the PNG signature)',
    );
  }
  if (png.length < 33) throw new ScreenError('the PNG is cut off before the end of its header');
  if (png.readUInt32BE(8) !== 13 || png.toString('latin1', 12, 16) !== 'IHDR') {
    throw new ScreenError('the PNG does not start with an IHDR header chunk');
  }
  if (crc32(png.subarray(12, 29)) !== png.readUInt32BE(29)) {
    throw new ScreenError('the PNG is damaged: the header chunk fails its CRC check');
  }
  const header: PngHeader = {
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
    bitDepth: png[24],
    colorType: png[25],
    interlaced: png[28] === 1,
  };
  checkHeader(header, png[26], png[27], png[28]);
  return header;
}

function checkHeader(h: PngHeader, compression: number, filter: number, interlace: number): void {
  if (h.width === 0 || h.height === 0)
    throw new ScreenError('the PNG has no pixels (0 wide or high)');
  if (h.width > MAX_SIDE || h.height > MAX_SIDE) {
    throw new ScreenError(
      `the PNG is ${h.width}x${h.height}; at most ${MAX_SIDE}x${MAX_SIDE} is accepted`,
    );
  }
  if (h.width * h.height * 4 > MAX_DECODED_BYTES) {
    throw new ScreenError(
      `the PNG is ${h.width}x${h.height}, ${kib(h.width * h.height * 4)} decoded; at most ${kib(MAX_DECODED_BYTES)} is accepted`,
    );
  }
  if (!DEPTHS[h.colorType]?.includes(h.bitDepth)) {
    throw new ScreenError(
      `the PNG has an invalid colour type ${h.colorType} with bit depth ${h.bitDepth}`,
    );
  }
  if (compression !== 0 || filter !== 0 || interlace > 1) {
    throw new ScreenError('the PNG uses an unknown compression, filter or interlace method');
  }
}

export interface Chunks {
  header: PngHeader;
  idat: Buffer[];
  idatBytes: number;
  /** A tRNS chunk: transparency that the fast path does not handle. */
  transparency: boolean;
}

/** Walks the chunks up to IEND, checking each one's length and CRC. */
export function readChunks(png: Buffer): Chunks {
  const header = readPngHeader(png);
  const idat: Buffer[] = [];
  let idatBytes = 0;
  let transparency = false;
  let offset = 33;
  for (;;) {
    if (offset + 12 > png.length) {
      throw new ScreenError(
        `the PNG is cut off after ${png.length} bytes (its end marker, IEND, is missing)`,
      );
    }
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > png.length) {
      throw new ScreenError(
        `the PNG is cut off after ${png.length} bytes (inside ${/^[A-Za-z]{4}$/.test(type) ? `its ${JSON.stringify(type)} chunk` : 'a chunk'})`,
      );
    }
    if (crc32(png.subarray(offset + 4, offset + 8 + length)) !== png.readUInt32BE(end - 4)) {
      const name = /^[A-Za-z]{4}$/.test(type) ? `its ${JSON.stringify(type)} chunk` : 'a chunk';
      throw new ScreenError(`the PNG is damaged: ${name} fails its CRC check`);
    }
    if (type === 'IDAT') {
      idat.push(png.subarray(offset + 8, offset + 8 + length));
      idatBytes += length;
    } else if (type === 'tRNS') {
      transparency = true;
    } else if (type === 'IEND') {
      break;
    } else if (type === 'IHDR') {
      throw new ScreenError('the PNG has a second IHDR header chunk');
    }
    offset = end;
  }
  if (idat.length === 0) throw new ScreenError('the PNG has no pixel data (no IDAT chunk)');
  return { header, idat, idatBytes, transparency };
}

export function rowBytes(width: number, h: PngHeader): number {
  return Math.ceil((width * CHANNELS[h.colorType] * h.bitDepth) / 8);
}

/** How many bytes the compressed pixel data must inflate to (filter bytes included). */
export function inflatedSize(h: PngHeader): number {
  if (!h.interlaced) return (rowBytes(h.width, h) + 1) * h.height;
  let total = 0;
  for (const [x0, y0, dx, dy] of ADAM7) {
    const w = h.width > x0 ? Math.ceil((h.width - x0) / dx) : 0;
    const rows = h.height > y0 ? Math.ceil((h.height - y0) / dy) : 0;
    if (w > 0 && rows > 0) total += (rowBytes(w, h) + 1) * rows;
  }
  return total;
}

/**
 * Checks a PNG's structure without inflating anything: the signature, the header and its limits,
 * every chunk's length and CRC, pixel data present, the end marker. What it cannot see is
 * compressed data that is damaged under a correct CRC (a broken encoder): checkPngData sees that.
 */
export function checkPngStructure(png: Buffer): PngHeader {
  return readChunks(png).header;
}
