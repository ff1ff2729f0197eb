/**
 * Where a screen's title is, from its pixels alone: screen rules match "the title bar" read by OCR
 * where the host serves no outline (docs/rules.md). SAP GUI, and the sim drawn after it, show the
 * screen's title left-aligned in a title bar under the window's caption, the menu bar and the
 * system toolbar, in larger type than the menus and toolbars around it. So the title is taken to
 * be, of the lines of text found near the left edge in the top quarter of the screen, the one of
 * the largest type (`typeSize`), leaving out the first line from the top: the window's caption,
 * which names the window (`SAP GUI – S4H (1) 100`), not the screen, and in small bold type is as
 * large. A line needs four glyphs (an icon is one or two). It takes about 5-20 ms.
 *
 * A screen laid out otherwise may give another line, or none: its text then has to match the
 * rule's title, which an anchored pattern (`^…$`) makes unlikely; nothing read means no title rule
 * applies. A dialog over the screen is not seen here: the title bar still reads the screen's title,
 * so the reader looks for one first (dialog-caption.ts) and reads no title while one is open.
 */
import type { Reach, RgbaImage } from './glyph-components';
import { findTextLine, type TextLine } from './text-line';

/** Where the title bar is looked for: the left margin, the top of the screen (1× pixels). */
const TITLE_X = 24;
const TITLE_SHARE_OF_HEIGHT = 0.25;
/** Apart by less than the height of the smallest text a line is found from, so none is skipped. */
const STEP_Y = 8;
/** A title has letters; an icon is one or two glyphs. */
const MIN_GLYPHS = 4;
/**
 * Lines are looked for in small windows (the line finder's cost grows with the pixels and glyphs
 * it sees): tall enough for a glyph of 24 px once a sample is within 4 px of its middle.
 */
const SAMPLE: Reach = { left: TITLE_X, right: 160, up: 16, down: 16 };
/**
 * The line taken is read again in a window as wide as the screen and three times its height (room
 * for the dots of an `Ü` above it), from its middle.
 */
const WHOLE_LINE = (height: number): Reach => ({
  left: TITLE_X,
  right: 4000,
  up: height,
  down: height,
});

/**
 * The size of a line's type, in image pixels: about its lower-case letters' height, the lower
 * quartile of its glyphs' heights once dots, accents and punctuation (under half the median) are
 * left out. Capitals, digits and ascenders, which are as tall in smaller type as lower case is in
 * the title's, do not count for more than they should (a menu "Beleg" is 7 px, a title 9).
 */
function typeSize(line: TextLine): number {
  const all = [...line.members]
    .map((id) => line.analysis.components[id].height)
    .sort((a, b) => a - b);
  const median = all[Math.floor(all.length / 2)];
  const letters = all.filter((h) => h >= median / 2);
  return letters[Math.floor(letters.length / 4)];
}

/**
 * The title bar's line of text, or null when none is found. `scale` is the size of text relative
 * to a 1× screen (2 on a HiDPI screenshot).
 */
export function findTitleLine(image: RgbaImage, scale = 1): TextLine | null {
  const x = Math.min(image.width - 1, Math.round(TITLE_X * scale));
  const bottom = Math.floor(image.height * TITLE_SHARE_OF_HEIGHT);
  let best: { y: number; size: number; height: number } | null = null;
  let lines = 0;
  let lastTop = -1;
  for (let y = 0; y < bottom;) {
    const line = findTextLine(image, x, y, scale, SAMPLE);
    const top = line ? line.analysis.window.y0 + line.top : -1;
    const below = line ? line.analysis.window.y0 + line.bottom + 1 : 0;
    if (line && top !== lastTop && line.members.size >= MIN_GLYPHS) {
      lastTop = top;
      const size = typeSize(line);
      // The caption is passed over; of lines as large, the first from the top.
      if (lines++ > 0 && (!best || size > best.size)) {
        best = { y: Math.floor((top + below) / 2), size, height: below - top };
      }
    }
    y = Math.max(y + Math.max(1, Math.round(STEP_Y * scale)), below);
  }
  return best && findTextLine(image, x, best.y, scale, WHOLE_LINE(best.height / scale));
}
