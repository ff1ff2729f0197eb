/**
 * Frames (docs/rules.md, docs/screen-host.md): the pixels of a screenshot the host served, by their frame hash, so that
 * `POST /action` with `X-Expect-Frame` can compare the screen now with the frame the action was
 * judged on. A frame is what the PNG shows: its own pixels (on a HiDPI screen more than the
 * coordinate space of actions), 8-bit RGBA exactly as a PNG decoder gives them back, so that the
 * host's `X-Frame-SHA256` is the pixel SHA-256 Warden computes from the PNG.
 */
import { frameSha256, type FrameRect, PIXEL_CHANNELS, type PixelLayout } from '@warden/protocol';
import { endianness } from 'node:os';
import { PNG } from 'pngjs';

export interface RawFrame {
  /** The PNG's pixels. */
  width: number;
  height: number;
  /** 4 bytes a pixel, RGBA, top row first. Never changed once the frame is made. */
  rgba: Uint8Array;
  /** `frameSha256(width, height, rgba)`, lower-case hex. */
  sha256: string;
}

export function rawFrame(width: number, height: number, rgba: Uint8Array): RawFrame {
  return { width, height, rgba, sha256: frameSha256(width, height, rgba) };
}

/** A screen larger than this is not decoded (Warden itself takes at most 64 MiB decoded). */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;

/**
 * The frame of a PNG, for backends that hand over no pixels (windows). pngjs decodes it the way
 * Warden does (Warden's own fast decoder gives pngjs's pixels): 8-bit RGBA, 16-bit channels
 * scaled down, palettes and grey expanded, alpha as the PNG has it.
 */
export function frameOfPng(png: Buffer): RawFrame {
  if (png.length < 24 || png.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('the backend gave a screenshot that is not a PNG');
  }
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (width * height * 4 > MAX_FRAME_BYTES) {
    throw new Error(`the backend gave a ${width}x${height} screenshot, too large to compare`);
  }
  let decoded: PNG;
  try {
    decoded = PNG.sync.read(png);
  } catch (error) {
    throw new Error(
      `the backend gave a PNG that does not decode: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return rawFrame(decoded.width, decoded.height, decoded.data);
}

const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * Frames of 32-bit pixels in a layout other than RGBA (X11's ZPixmap): the colour channels moved
 * into RGBA order and alpha set to 255, as the RGB PNG the encoder writes decodes. The frame of the
 * last pixels is kept, and the same pixels again (a screen waiting for input) give that frame back
 * without converting or hashing them again.
 */
export class OpaqueFrames {
  private previous: { pixels: Buffer; layout: PixelLayout; frame: RawFrame } | null = null;

  /** The caller must not change `pixels` afterwards (they are kept for the next comparison). */
  frameOf(pixels: Uint8Array, width: number, height: number, layout: PixelLayout): RawFrame {
    if (pixels.length !== width * height * 4) {
      throw new Error(`${pixels.length} bytes are not ${width}x${height} 32-bit pixels`);
    }
    const view = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
    const prev = this.previous;
    if (
      prev !== null &&
      prev.layout === layout &&
      prev.frame.width === width &&
      prev.frame.height === height &&
      view.equals(prev.pixels)
    ) {
      return prev.frame;
    }
    const frame = rawFrame(width, height, opaqueRgba(view, layout));
    this.previous = { pixels: view, layout, frame };
    return frame;
  }
}

/** A new buffer: the pixels as RGBA with alpha 255. */
export function opaqueRgba(pixels: Uint8Array, layout: PixelLayout): Buffer {
  // Never from the shared pool: the buffer starts at offset 0, so a Uint32 view of it works.
  const out = Buffer.allocUnsafeSlow(pixels.length);
  const [r, g, b] = PIXEL_CHANNELS[layout];
  if (LITTLE_ENDIAN && pixels.byteOffset % 4 === 0) {
    // One 32-bit word a pixel: about four times faster than byte by byte.
    const src = new Uint32Array(pixels.buffer, pixels.byteOffset, pixels.length / 4);
    const dst = new Uint32Array(out.buffer, out.byteOffset, out.length / 4);
    const rs = r * 8;
    const gs = g * 8;
    const bs = b * 8;
    for (let i = 0; i < src.length; i++) {
      const v = src[i];
      dst[i] =
        ((v >>> rs) & 0xff) | (((v >>> gs) & 0xff) << 8) | (((v >>> bs) & 0xff) << 16) | 0xff000000;
    }
    return out;
  }
  for (let i = 0; i < pixels.length; i += 4) {
    out[i] = pixels[i + r];
    out[i + 1] = pixels[i + g];
    out[i + 2] = pixels[i + b];
    out[i + 3] = 255;
  }
  return out;
}

/**
 * Whether the screen `now` is the frame `expected`, leaving out the pixels of `ignore` (frame
 * pixels; the parts of a rectangle outside the frame leave nothing out). A different size is a
 * change. Equal hashes are equal pixels; otherwise, without rectangles to leave out, the frames
 * differ; with them, the pixels outside the rectangles are compared.
 */
export function framesMatch(
  expected: RawFrame,
  now: RawFrame,
  ignore: readonly FrameRect[] = [],
): boolean {
  if (expected.width !== now.width || expected.height !== now.height) return false;
  if (expected.sha256 === now.sha256) return true;
  if (ignore.length === 0) return false;
  const { width, height } = expected;
  const a = Buffer.from(expected.rgba.buffer, expected.rgba.byteOffset, expected.rgba.byteLength);
  const b = Buffer.from(now.rgba.buffer, now.rgba.byteOffset, now.rgba.byteLength);
  const rowBytes = width * 4;
  const clipped = ignore
    .map((r) => ({
      x0: Math.min(width, r.x),
      x1: Math.min(width, r.x + r.width),
      y0: Math.min(height, r.y),
      y1: Math.min(height, r.y + r.height),
    }))
    .filter((r) => r.x0 < r.x1 && r.y0 < r.y1);
  // Bands of rows in which the same rectangles apply, so that each band's columns are worked out once.
  const cuts = [...new Set([0, height, ...clipped.flatMap((r) => [r.y0, r.y1])])].sort(
    (p, q) => p - q,
  );
  for (let c = 0; c + 1 < cuts.length; c++) {
    const top = cuts[c];
    const bottom = cuts[c + 1];
    const columns = keptColumns(
      clipped.filter((r) => r.y0 <= top && r.y1 >= bottom),
      width,
    );
    if (columns.length === 1 && columns[0][0] === 0 && columns[0][1] === width) {
      // No rectangle here: the whole band at once.
      if (a.compare(b, top * rowBytes, bottom * rowBytes, top * rowBytes, bottom * rowBytes) !== 0)
        return false;
      continue;
    }
    for (let y = top; y < bottom; y++) {
      const row = y * rowBytes;
      for (const [x0, x1] of columns) {
        const start = row + x0 * 4;
        const end = row + x1 * 4;
        if (a.compare(b, start, end, start, end) !== 0) return false;
      }
    }
  }
  return true;
}

/** The column ranges [x0, x1) of a row that no rectangle covers. */
function keptColumns(rects: { x0: number; x1: number }[], width: number): [number, number][] {
  const covered = rects.map((r): [number, number] => [r.x0, r.x1]).sort((p, q) => p[0] - q[0]);
  const kept: [number, number][] = [];
  let x = 0;
  for (const [x0, x1] of covered) {
    if (x0 > x) kept.push([x, x0]);
    x = Math.max(x, x1);
  }
  if (x < width) kept.push([x, width]);
  return kept;
}

/**
 * How many frames the host keeps. Warden acts on the frame of the step's last screenshot (one run
 * at a time per host, docs/step-flow.md), and the frames are kept by hash, so an unchanged screen served
 * again takes no second place: four hold that frame together with a blinking caret's two frames
 * and one more screenshot taken in between (a settle sample, the doctor). An older frame is
 * answered `frame_unknown`, and Warden compares a fresh screenshot itself: safe, only slower.
 */
export const FRAMES_KEPT = 4;
/** And at most this many bytes of them: four 1920x1080 frames are 33 MB, three 4K ones 100 MB. */
export const FRAME_BYTES_KEPT = 128 * 1024 * 1024;

/** The last frames the host served, by hash, the least recently served dropped first. */
export class FrameStore {
  private readonly frames = new Map<string, RawFrame>();
  private bytes = 0;

  constructor(
    private readonly maxFrames = FRAMES_KEPT,
    private readonly maxBytes = FRAME_BYTES_KEPT,
  ) {}

  /** Keeps a frame that was just served (again). A frame larger than the byte bound is not kept. */
  remember(frame: RawFrame): void {
    const known = this.frames.get(frame.sha256);
    if (known) {
      this.frames.delete(frame.sha256);
      this.frames.set(frame.sha256, known);
      return;
    }
    if (frame.rgba.byteLength > this.maxBytes) return;
    this.frames.set(frame.sha256, frame);
    this.bytes += frame.rgba.byteLength;
    for (const [sha256, old] of this.frames) {
      if (this.frames.size <= this.maxFrames && this.bytes <= this.maxBytes) break;
      this.frames.delete(sha256);
      this.bytes -= old.rgba.byteLength;
    }
  }

  get(sha256: string): RawFrame | undefined {
    return this.frames.get(sha256);
  }

  get size(): number {
    return this.frames.size;
  }

  get byteSize(): number {
    return this.bytes;
  }
}
