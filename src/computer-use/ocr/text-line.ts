/**
 * Finding the text line at a point of a screenshot, pure TypeScript (docs/rules.md: the OCR label
 * source). Tesseract alone is slow and easily confused on a raw crop of a UI (frames read as `|`,
 * half words at the crop's edges, 40–60 ms per crop), so the line is found here first and only it
 * is drawn for tesseract (text-line-render.ts):
 *
 * 1.–3. The pixels around the point become glyphs and barriers (glyph-components.ts).
 * 4. The glyph nearest the point (not behind a barrier, within a few glyph heights) seeds a line;
 *    glyphs on the same baseline band with gaps under GAP × the band's height join it. That line
 *    is "the word or line under or nearest the point".
 */
import {
  analyse,
  AROUND,
  type Analysis,
  backgrounds,
  barrierBetween,
  blocked,
  type Component,
  greyWindow,
  type Reach,
  type RgbaImage,
} from './glyph-components';

/** Glyphs join a line across gaps up to this many times the line's height. */
const GAP = 1.2;

/** A line of glyphs found near the point, ready to be drawn for tesseract. */
export interface TextLine {
  analysis: Analysis;
  members: Set<number>;
  minX: number;
  maxX: number;
  top: number;
  bottom: number;
  /** Distance from the point to the seed glyph, in window pixels. */
  distance: number;
}

function lineAt(a: Analysis): TextLine | null {
  const { px, py, scale } = a.window;
  const glyphs = a.components.filter((c) => !c.barrier && !c.cut);
  let seed: Component | null = null;
  let best = Infinity;
  for (const c of glyphs) {
    if (c.height < 4 * scale && c.width < 4 * scale) continue; // dots and specks never seed
    const tx = Math.min(Math.max(px, c.minX), c.maxX);
    const ty = Math.min(Math.max(py, c.minY), c.maxY);
    const dx = Math.abs(tx - px);
    const dy = Math.abs(ty - py);
    if (dx > Math.max(24 * scale, 5 * c.height) || dy > Math.max(8 * scale, 1.5 * c.height))
      continue;
    const d = dx * dx + 4 * dy * dy;
    if (d < best && !blocked(a, px, py, tx, ty)) {
      best = d;
      seed = c;
    }
  }
  return seed && grow(a, glyphs, seed, Math.sqrt(best));
}

/** The line a seed glyph starts: glyphs on its baseline band, joined across small gaps. */
export function grow(
  a: Analysis,
  glyphs: Component[],
  seed: Component,
  distance: number,
): TextLine {
  const members = new Set([seed.id]);
  let { minX, maxX } = seed;
  let top = seed.minY;
  let bottom = seed.maxY;
  for (let grew = true; grew;) {
    grew = false;
    const band = bottom - top + 1;
    const gap = Math.max(3, GAP * band);
    for (const c of glyphs) {
      if (members.has(c.id)) continue;
      let hgap = 0;
      let ax = 0;
      let bx = 0;
      if (c.minX > maxX) [hgap, ax, bx] = [c.minX - maxX - 1, maxX, c.minX];
      else if (minX > c.maxX) [hgap, ax, bx] = [minX - c.maxX - 1, c.maxX, minX];
      if (hgap > gap) continue;
      const overlap = Math.min(bottom, c.maxY) - Math.max(top, c.minY) + 1;
      const small = c.height <= 0.45 * band; // dots, accents, umlauts, punctuation
      const onBand = overlap >= 0.5 * Math.min(c.height, band) && c.height <= 1.6 * band + 2;
      const accent = small && c.minY >= top - 0.5 * band && c.maxY <= bottom + 0.2 * band;
      if (!onBand && !accent) continue;
      if (hgap > 0 && barrierBetween(a, ax, bx, Math.max(top, c.minY), Math.min(bottom, c.maxY))) {
        continue;
      }
      members.add(c.id);
      grew = true;
      minX = Math.min(minX, c.minX);
      maxX = Math.max(maxX, c.maxX);
      top = Math.min(top, c.minY);
      if (!small) bottom = Math.max(bottom, c.maxY);
    }
  }
  return { analysis: a, members, minX, maxX, top, bottom, distance };
}

/**
 * The line of text under or nearest the point (image pixels), or null when there is none within
 * reach. `scale` is the size of text relative to a 1× screen (2 on a HiDPI screenshot); `reach`
 * how far the window looked at goes (a glyph it cuts is dropped, so a longer line is cut short).
 */
export function findTextLine(
  image: RgbaImage,
  x: number,
  y: number,
  scale = 1,
  reach: Reach = AROUND,
): TextLine | null {
  const w = greyWindow(image, x, y, scale, reach);
  let found: TextLine | null = null;
  for (const { background, dark } of backgrounds(w)) {
    const line = lineAt(analyse(w, background, dark));
    if (!line) continue;
    if (
      !found ||
      line.distance < found.distance ||
      (line.distance === found.distance && line.members.size > found.members.size)
    ) {
      found = line;
    }
  }
  return found;
}
