/**
 * Text drawn so that no person can see it (issue 16 §2): the outline says an element shows a text,
 * but its pixels show nothing that stands out from their background (white on white, a grey one
 * step off its grey). Such text is meant for a model that reads the outline, not for a person.
 *
 * The background is the most common luminance inside the element (a few pixels in from its edge,
 * so a field's frame is not taken for text); a pixel stands out when its WCAG contrast ratio with
 * the background is at least MIN_CONTRAST. A text is drawn from the start of its box or about its
 * centre (left-aligned or centred), over at least MIN_ADVANCE per character: where neither of
 * those two spans has MIN_INK of pixels that stand out, nobody can see the text. Whatever else the
 * box shows elsewhere (a status bar's system field) does not count for it. Text aligned to the
 * right of its box is not seen there, and is held: a person decides. Pure.
 */
import type { RgbaImage } from '../ocr/glyph-components';
import type { PixelRect } from '../pixels/pixels';

/**
 * Below this contrast ratio with its background a pixel does not stand out (WCAG asks 3:1 of
 * large text and 4.5:1 of body text; 1.5:1 is light grey #cccccc on white, barely there).
 */
export const MIN_CONTRAST = 1.5;
/** The share of a span's pixels that must stand out for a text to count as drawn there. */
const MIN_INK = 0.01;
/** Pixels left out at each edge of the box (a frame, a focus ring). */
const INSET = 2;
/** A box smaller than this after the inset is not judged here (hidden_text judges tiny ones). */
const MIN_AREA = 16;
/**
 * The narrowest advance a character of readable text takes, in coordinate units: a text of n
 * characters spans at least n times this, from the start of its box or about its centre.
 */
const MIN_ADVANCE = 4;
/** The narrowest span looked at. */
const MIN_SPAN = 16;
/** Luminance steps of the histogram: fine enough that dark greys one step apart differ. */
const BINS = 1024;

/** sRGB channel value to linear light, as WCAG's relative luminance defines it. */
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/**
 * Whether the box's pixels show no text a person could see where a text of `chars` characters
 * would be drawn (`scale`: image pixels per coordinate unit, for a HiDPI screen); null when the box
 * is too small to judge.
 */
export function faintText(
  image: RgbaImage,
  box: PixelRect,
  chars: number,
  scale = 1,
): boolean | null {
  const x0 = Math.max(0, box.x0 + INSET);
  const y0 = Math.max(0, box.y0 + INSET);
  const x1 = Math.min(image.width, box.x1 - INSET);
  const y1 = Math.min(image.height, box.y1 - INSET);
  if (x1 <= x0 || y1 <= y0 || (x1 - x0) * (y1 - y0) < MIN_AREA) return null;

  // Where the text is, if it is drawn: from the box's start, or about its centre.
  const span = Math.min(x1 - x0, Math.max(MIN_SPAN, Math.ceil(chars * MIN_ADVANCE * scale)));
  const centre = Math.floor((x0 + x1 - span) / 2);
  const windows: Array<[number, number]> = [
    [x0, x0 + span],
    [centre, centre + span],
  ];
  const whole = new Uint32Array(BINS);
  const inWindow = windows.map(() => new Uint32Array(BINS));
  const { data, width } = image;
  for (let y = y0; y < y1; y++) {
    for (let x = x0, i = (y * width + x0) * 4; x < x1; x++, i += 4) {
      const l =
        0.2126 * LINEAR[data[i]] + 0.7152 * LINEAR[data[i + 1]] + 0.0722 * LINEAR[data[i + 2]];
      const bin = Math.min(BINS - 1, Math.round(l * (BINS - 1)));
      whole[bin]++;
      for (let w = 0; w < windows.length; w++) {
        if (x >= windows[w][0] && x < windows[w][1]) inWindow[w][bin]++;
      }
    }
  }
  let background = 0;
  for (let b = 1; b < BINS; b++) if (whole[b] > whole[background]) background = b;
  const lb = background / (BINS - 1);
  const standsOut = (b: number): boolean => {
    const l = b / (BINS - 1);
    return (Math.max(l, lb) + 0.05) / (Math.min(l, lb) + 0.05) >= MIN_CONTRAST;
  };
  const area = span * (y1 - y0);
  return inWindow.every((histogram) => {
    let ink = 0;
    for (let b = 0; b < BINS; b++) if (histogram[b] !== 0 && standsOut(b)) ink += histogram[b];
    return ink < Math.max(4, area * MIN_INK);
  });
}
