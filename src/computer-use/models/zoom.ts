import { encodeScreenPngAsync } from '@warden/protocol';
import type { Rect } from '../settings/agent-config';
import { decodePng } from '../pixels/png-decoder';
import { downscale } from './downscale';
import type { Size } from './scaling';

/**
 * A zoom (the computer toolset's `zoom`): a region of the screen at its native resolution, the
 * host's own pixels cut out, not the scaled screenshot the model saw; a region larger than the
 * model's image is scaled down to fit it, never up. `space` is the host's coordinate space (the
 * region's); the PNG may have more pixels (HiDPI).
 */
export async function zoomPng(
  png: Buffer,
  space: Size,
  region: Rect,
  fit: Size,
): Promise<{ png: Buffer; size: Size }> {
  const source = decodePng(png);
  const sx = source.width / space.width;
  const sy = source.height / space.height;
  const x0 = clamp(Math.floor(region.x * sx), 0, source.width - 1);
  const y0 = clamp(Math.floor(region.y * sy), 0, source.height - 1);
  const x1 = clamp(Math.ceil((region.x + region.width) * sx), x0 + 1, source.width);
  const y1 = clamp(Math.ceil((region.y + region.height) * sy), y0 + 1, source.height);
  const width = x1 - x0;
  const height = y1 - y0;
  const rgba = Buffer.alloc(width * height * 4);
  for (let row = 0; row < height; row++) {
    const from = ((y0 + row) * source.width + x0) * 4;
    source.rgba.copy(rgba, row * width * 4, from, from + width * 4);
  }
  const scale = Math.min(1, fit.width / width, fit.height / height);
  const size = {
    width: Math.max(1, Math.floor(width * scale)),
    height: Math.max(1, Math.floor(height * scale)),
  };
  const out = scale < 1 ? downscale({ width, height, rgba }, size) : { width, height, rgba };
  return { png: await encodeScreenPngAsync(out.rgba, out.width, out.height), size };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), hi);
}
