/**
 * A found text line redrawn on its own for tesseract (docs/rules.md: the OCR label source): a crop of
 * the screen would hand it frames and neighbouring labels too, which it reads as text.
 */
import type { TextLine } from './text-line';

/** Height tesseract likes best for a line, in pixels. */
const TARGET_HEIGHT = 32;
const MAX_LINE_WIDTH = 1600;
const INK_GAMMA = 1.3;

/**
 * Draws only the line's glyphs, dark on white, scaled so the line is about TARGET_HEIGHT pixels
 * high, with a white margin: a clean single line for tesseract, as a binary PGM (P5), which
 * Leptonica reads without a codec.
 */
export function renderTextLine(line: TextLine): { pgm: Buffer; width: number; height: number } {
  const { analysis: a, members, minX, maxX, top, bottom } = line;
  const { width: ww, height: wh, grey } = a.window;
  const { labels, background, dark } = a;
  const member = (l: number) => l >= 0 && members.has(l);

  let contrast = 1;
  for (let y = top; y <= bottom; y++) {
    for (let x = minX; x <= maxX; x++) {
      if (member(labels[y * ww + x]))
        contrast = Math.max(contrast, Math.abs(grey[y * ww + x] - background));
    }
  }
  // Source: the line's box plus one pixel, keeping the anti-aliased rims of member glyphs.
  const sw = maxX - minX + 3;
  const sh = bottom - top + 3;
  const ink = new Float32Array(sw * sh);
  for (let y = 0; y < sh; y++) {
    for (let x = 0; x < sw; x++) {
      const X = minX - 1 + x;
      const Y = top - 1 + y;
      if (X < 0 || Y < 0 || X >= ww || Y >= wh) continue;
      let near = false;
      for (let dy = -1; dy <= 1 && !near; dy++) {
        for (let dx = -1; dx <= 1 && !near; dx++) {
          const xx = X + dx;
          const yy = Y + dy;
          near = xx >= 0 && yy >= 0 && xx < ww && yy < wh && member(labels[yy * ww + xx]);
        }
      }
      if (!near) continue;
      const g = grey[Y * ww + X];
      const d = dark ? background - g : g - background;
      // A little gamma thins anti-aliased rims, so "rn" is less often read as "m".
      ink[y * sw + x] = Math.max(0, Math.min(1, d / contrast)) ** INK_GAMMA;
    }
  }

  // Small text is scaled up (at most 6×, and to at most MAX_LINE_WIDTH: tesseract's time grows
  // with the line's length, and a long line is not a button's label anyway).
  const s = Math.max(
    1,
    Math.min(6, Math.round(TARGET_HEIGHT / (bottom - top + 1)), Math.floor(MAX_LINE_WIDTH / sw)),
  );
  const pad = Math.round(TARGET_HEIGHT / 3);
  const width = sw * s + 2 * pad;
  const height = sh * s + 2 * pad;
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1');
  const out = Buffer.alloc(header.length + width * height, 255);
  header.copy(out);
  for (let y = 0; y < sh * s; y++) {
    const fy = (y + 0.5) / s - 0.5;
    const iy = Math.max(0, Math.min(sh - 1, Math.floor(fy)));
    const ay = Math.min(Math.max(fy - iy, 0), 1);
    const iy1 = Math.min(sh - 1, iy + 1);
    const row = header.length + (y + pad) * width + pad;
    for (let x = 0; x < sw * s; x++) {
      const fx = (x + 0.5) / s - 0.5;
      const ix = Math.max(0, Math.min(sw - 1, Math.floor(fx)));
      const ax = Math.min(Math.max(fx - ix, 0), 1);
      const ix1 = Math.min(sw - 1, ix + 1);
      const v =
        ink[iy * sw + ix] * (1 - ax) * (1 - ay) +
        ink[iy * sw + ix1] * ax * (1 - ay) +
        ink[iy1 * sw + ix] * (1 - ax) * ay +
        ink[iy1 * sw + ix1] * ax * ay;
      out[row + x] = 255 - Math.round(v * 255);
    }
  }
  return { pgm: out, width, height };
}
