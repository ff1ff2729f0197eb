import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { encodeScreenPngAsync } from '@warden/protocol';
import { decodePng, type Decoded } from '../pixels/png-decoder';
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
    if (r.done) return encodeScreenPngAsync(r.value.rgba, r.value.width, r.value.height);
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

/**
 * One model row at a time: the source rows it averages are summed column span by column span into
 * one row of sums (whole numbers, so the mean is exact), then divided by the pixels counted. The
 * source is read row after row, in the order it lies in memory, and nothing larger than a row of
 * sums is allocated besides the output.
 */
function* resample(source: Decoded, size: Size): Generator<void, Decoded> {
  if (source.width === size.width && source.height === size.height) return source;
  const columns = spans(size.width, source.width);
  const rows = spans(size.height, source.height);
  // A plain Uint8Array view: indexing a Buffer made in another realm (Jest's sandbox) is far slower.
  const rgba = new Uint8Array(source.rgba.buffer, source.rgba.byteOffset, source.rgba.length);
  const out = Buffer.alloc(size.width * size.height * 4);
  const view = new Uint8Array(out.buffer, out.byteOffset, out.length);
  const rowLength = size.width * 4;
  // Float64: whole numbers stay exact far past what 255 × the pixels of one span can reach.
  const sums = new Float64Array(rowLength);
  const columnLo = Int32Array.from(columns, ([lo]) => lo);
  const columnHi = Int32Array.from(columns, ([, hi]) => hi);
  let sinceYield = 0;
  for (let m = 0; m < size.height; m++) {
    const [lo, hi] = rows[m];
    sums.fill(0);
    for (let y = lo; y <= hi; y++) {
      if (++sinceYield === ROWS_PER_SLICE) {
        sinceYield = 0;
        yield;
      }
      const rowIn = y * source.width * 4;
      for (let c = 0, o = 0; c < size.width; c++, o += 4) {
        let r = 0;
        let g = 0;
        let b = 0;
        let a = 0;
        for (let i = rowIn + columnLo[c] * 4, end = rowIn + columnHi[c] * 4; i <= end; i += 4) {
          r += rgba[i];
          g += rgba[i + 1];
          b += rgba[i + 2];
          a += rgba[i + 3];
        }
        sums[o] += r;
        sums[o + 1] += g;
        sums[o + 2] += b;
        sums[o + 3] += a;
      }
    }
    const height = hi - lo + 1;
    const rowOut = m * rowLength;
    for (let c = 0, o = 0; c < size.width; c++, o += 4) {
      const n = height * (columnHi[c] - columnLo[c] + 1);
      view[rowOut + o] = Math.round(sums[o] / n);
      view[rowOut + o + 1] = Math.round(sums[o + 1] / n);
      view[rowOut + o + 2] = Math.round(sums[o + 2] / n);
      view[rowOut + o + 3] = Math.round(sums[o + 3] / n);
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
