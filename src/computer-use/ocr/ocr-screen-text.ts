/**
 * A whole screen for tesseract, and what it read back in the coordinate space of actions: the
 * injection rail's eyes on a host without an outline (docs/models.md), where the model reads the text
 * in the screenshot itself and Warden's only way to read it too is OCR.
 */
import type { RgbaImage } from './glyph-components';
import type { TesseractLine } from './tesseract-worker';

/** One line of text read on a screen; `rect` in the coordinate space actions use. */
export type ScreenTextLine = TesseractLine;

/** The screenshot as an 8-bit grey PGM (P5), the format the line reads use too. */
export function screenPgm(image: RgbaImage): Buffer {
  const { width, height, data } = image;
  const head = Buffer.from(`P5 ${width} ${height} 255\n`, 'latin1');
  const out = Buffer.allocUnsafe(head.length + width * height);
  head.copy(out);
  for (let p = 0, i = 0, o = head.length; p < width * height; p++, i += 4, o++) {
    out[o] = (77 * data[i] + 150 * data[i + 1] + 29 * data[i + 2]) >> 8;
  }
  return out;
}

/** The lines with their boxes moved from the image's pixels into `space` (HiDPI). */
export function linesInSpace(
  lines: readonly TesseractLine[],
  image: { width: number; height: number },
  space: { width: number; height: number } | undefined,
): ScreenTextLine[] {
  const sx = space ? space.width / image.width : 1;
  const sy = space ? space.height / image.height : 1;
  return lines.map(({ text, confidence, rect: r }) => {
    const x = Math.floor(r.x * sx);
    const y = Math.floor(r.y * sy);
    return {
      text,
      confidence,
      rect: {
        x,
        y,
        width: Math.ceil((r.x + r.width) * sx) - x,
        height: Math.ceil((r.y + r.height) * sy) - y,
      },
    };
  });
}
