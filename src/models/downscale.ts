import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { decodePng, type Decoded } from '../computer-use/screens/png-decoder';
import { encodeRgbPngAsync } from '../computer-use/screens/png-encoder';
import type { Size } from './scaling';

/**
 * The screenshot the model sees: the PNG resampled to the model's size by averaging, for each
 * model pixel, the screen pixels around the point the coordinate map (scaling.ts) sends it to. A
 * PNG already of that size is returned as it is, byte for byte. The work yields to the event loop
 * every few rows and deflates on libuv's pool, so a large screen never stalls a worker's leases.
 */
export async function downscalePng(png: Buffer, size: Size): Promise<Buffer> {
  const source = decodePng(png);
  if (source.width === size.width && source.height === size.height) return png;
  const work = resample(source, size);
  for (let r = work.next(); ; r = work.next()) {
    if (r.done) return encodeRgbPngAsync(r.value);
    await yieldToEventLoop();
  }
}

/** The resampling itself, on decoded RGBA, in one go. */
export function downscale(source: Decoded, size: Size): Decoded {
  const work = resample(source, size);
  for (let r = work.next(); ; r = work.next()) if (r.done) return r.value;
}

/** Source rows handled between two yields. */
const ROWS_PER_SLICE = 64;

function* resample(source: Decoded, size: Size): Generator<void, Decoded> {
  if (source.width === size.width && source.height === size.height) return source;
  const columns = spans(size.width, source.width);
  const rows = spans(size.height, source.height);
  // A plain Uint8Array view: indexing a Buffer made in another realm (Jest's sandbox) is far slower.
  const rgba = new Uint8Array(source.rgba.buffer, source.rgba.byteOffset, source.rgba.length);

  // Horizontal pass into one row of sums per source row, then the vertical pass.
  const across = new Float64Array(size.width * source.height * 4);
  for (let y = 0; y < source.height; y++) {
    if (y > 0 && y % ROWS_PER_SLICE === 0) yield;
    const rowIn = y * source.width * 4;
    const rowOut = y * size.width * 4;
    for (let m = 0; m < size.width; m++) {
      const [lo, hi] = columns[m];
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let x = lo; x <= hi; x++) {
        const i = rowIn + x * 4;
        r += rgba[i];
        g += rgba[i + 1];
        b += rgba[i + 2];
        a += rgba[i + 3];
      }
      const n = hi - lo + 1;
      const o = rowOut + m * 4;
      across[o] = r / n;
      across[o + 1] = g / n;
      across[o + 2] = b / n;
      across[o + 3] = a / n;
    }
  }
  const out = Buffer.alloc(size.width * size.height * 4);
  const view = new Uint8Array(out.buffer, out.byteOffset, out.length);
  const rowLength = size.width * 4;
  for (let m = 0; m < size.height; m++) {
    if (m > 0 && m % ROWS_PER_SLICE === 0) yield;
    const [lo, hi] = rows[m];
    const n = hi - lo + 1;
    const o = m * rowLength;
    for (let x = 0; x < rowLength; x++) {
      let sum = 0;
      for (let y = lo; y <= hi; y++) sum += across[y * rowLength + x];
      view[o + x] = Math.round(sum / n);
    }
  }
  return { width: size.width, height: size.height, rgba: out };
}

/**
 * For each model pixel on one axis, the inclusive range of source pixels it averages: those within
 * half a step of `m * (source - 1) / (model - 1)`, the point the coordinate map sends `m` to.
 */
export function spans(modelSide: number, sourceSide: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (modelSide === 1) {
    out.push([0, sourceSide - 1]);
    return out;
  }
  const step = (sourceSide - 1) / (modelSide - 1);
  const half = Math.max(step / 2, 0.5);
  for (let m = 0; m < modelSide; m++) {
    const centre = m * step;
    const lo = Math.max(0, Math.ceil(centre - half));
    const hi = Math.min(sourceSide - 1, Math.floor(centre + half));
    out.push(lo <= hi ? [lo, hi] : [Math.round(centre), Math.round(centre)]);
  }
  return out;
}
