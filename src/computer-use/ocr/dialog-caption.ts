/**
 * Whether a dialog is open over the screen, from its pixels alone: for screen rules on a host
 * without an outline (docs/rules.md), where the title read from the title bar is the screen's behind
 * the dialog, and a rule that makes Enter a read on that screen must not make it a read in the
 * dialog ("Labels fail closed": a title that cannot be trusted lets no title rule apply).
 *
 * SAP GUI, Windows and the sim draw a dialog as a window with a caption bar in the colour of the
 * main window's caption. So: the main caption is the band at the top of the screen in the colour
 * most common on its row at 4 px; a dialog is a bar of that colour further down, at least
 * MIN_RUN px wide and MIN_ROWS px tall. Pure; about 4 ms on a 1280×800 screen with no dialog (the
 * whole screen is scanned; Node 24, this machine's 2 cores). A screen without
 * a caption band at the top gives false (nothing to compare with), as before this check.
 */
import type { RgbaImage } from './glyph-components';

/** A dialog's caption bar: at least this wide and this tall, in 1× pixels. */
const MIN_RUN = 120;
const MIN_ROWS = 12;
/** Colours this close (sum of the channels' differences) count as the same (anti-aliasing, JPEG-ish hosts). */
const TOLERANCE = 24;
/** The row the main caption's colour is taken from, in 1× pixels. */
const CAPTION_Y = 4;

export function dialogCaptionBelow(image: RgbaImage, scale = 1): boolean {
  const { width, height, data } = image;
  if (width < 16 || height < 16) return false;
  const at = (x: number, y: number) => (y * width + x) * 4;
  const captionRow = Math.min(height - 1, Math.round(CAPTION_Y * scale));
  const caption = commonColour(data, at(0, captionRow), width);
  const near = (i: number) =>
    Math.abs(data[i] - caption[0]) +
      Math.abs(data[i + 1] - caption[1]) +
      Math.abs(data[i + 2] - caption[2]) <=
    TOLERANCE;
  // The main caption band: from the top, rows whose right end has its colour.
  let y = 0;
  while (y < height && near(at(width - 2, y))) y++;
  if (y === 0 || y >= height) return false;
  const minRun = Math.round(MIN_RUN * scale);
  const minRows = Math.round(MIN_ROWS * scale);
  let rows = 0;
  for (y += 1; y < height; y++) {
    let run = 0;
    let longest = 0;
    for (let x = 0, i = at(0, y); x < width; x++, i += 4) {
      run = near(i) ? run + 1 : 0;
      if (run > longest) longest = run;
    }
    rows = longest >= minRun ? rows + 1 : 0;
    if (rows >= minRows) return true;
  }
  return false;
}

/** The most common colour of `count` pixels from byte `start`, as [r, g, b]. */
function commonColour(
  data: Uint8Array | Uint8ClampedArray,
  start: number,
  count: number,
): [number, number, number] {
  const counts = new Map<number, number>();
  let best = 0;
  let bestCount = 0;
  for (let k = 0, i = start; k < count; k++, i += 4) {
    const c = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    const n = (counts.get(c) ?? 0) + 1;
    counts.set(c, n);
    if (n > bestCount) {
      best = c;
      bestCount = n;
    }
  }
  return [(best >> 16) & 255, (best >> 8) & 255, best & 255];
}
