/**
 * The label beside a text field, from its pixels alone (docs/rules.md: "OCR beside the focused
 * field"): the field's left border, then the line of text nearest it on its left.
 */
import {
  analyse,
  type Analysis,
  backgrounds,
  blocked,
  type Component,
  greyWindow,
  type RgbaImage,
} from './glyph-components';
import { grow, type TextLine } from './text-line';

/** How far left of a field its label may be, and how far left of the point the field's border. */
const LABEL_REACH = 400;
const FIELD_REACH = 640;

/**
 * The left border of the field around the point (image x), or null: the first frame, rule or box
 * (a barrier) on the point's row, going left from the point.
 */
function fieldLeftEdge(image: RgbaImage, x: number, y: number, scale: number): number | null {
  const w = greyWindow(image, x, y, scale, { left: FIELD_REACH, right: 60, up: 40, down: 40 });
  for (const { background, dark } of backgrounds(w)) {
    const a = analyse(w, background, dark);
    const row = w.py * w.width;
    for (let px = w.px; px >= 0; px--) {
      const l = a.labels[row + px];
      if (l >= 0 && a.components[l].barrier) return w.x0 + a.components[l].minX;
    }
  }
  return null;
}

/**
 * The label beside the text field around the point (docs/rules.md: "OCR beside the focused field"),
 * or null. The field's left border is the first frame left of the point on its row; its label is
 * the line of text nearest that border on its left, on the same row (SAP and most forms put it
 * there), with no frame between them.
 */
export function findFieldLabelLine(
  image: RgbaImage,
  x: number,
  y: number,
  scale = 1,
): TextLine | null {
  const edge = fieldLeftEdge(image, x, y, scale);
  if (edge === null || edge < 1) return null;
  const w = greyWindow(image, edge - 1, y, scale, {
    left: LABEL_REACH,
    right: 0,
    up: 40,
    down: 40,
  });
  let found: TextLine | null = null;
  for (const { background, dark } of backgrounds(w)) {
    const a = analyse(w, background, dark);
    const line = labelLeftOf(a);
    if (line && (!found || line.distance < found.distance)) found = line;
  }
  return found;
}

/** The line whose glyph is nearest the window's right end on the point's row, not behind a frame. */
function labelLeftOf(a: Analysis): TextLine | null {
  const { px, py, scale } = a.window;
  const glyphs = a.components.filter((c) => !c.barrier && !c.cut);
  let seed: Component | null = null;
  let best = Infinity;
  for (const c of glyphs) {
    if (c.height < 4 * scale && c.width < 4 * scale) continue; // dots and specks never seed
    const ty = Math.min(Math.max(py, c.minY), c.maxY);
    if (Math.abs(ty - py) > Math.max(8 * scale, 0.5 * c.height)) continue;
    const d = px - c.maxX;
    if (d < best && !blocked(a, c.maxX, ty, px, ty)) {
      best = d;
      seed = c;
    }
  }
  return seed && grow(a, glyphs, seed, best);
}
