/**
 * What the host leaves out when it compares the frame an action was judged on with the screen it
 * is about to act on (`X-Frame-Ignore`, docs/screen-host.md): the volatile mask and the admin's
 * `ignore_regions`, as rectangles in the frame's pixels. The host takes at most 256.
 */
import type { Rect } from '@warden/protocol';
import { pixelRects } from './pixels';
import type { VolatileMask } from './volatile-mask';

export const MAX_IGNORE_RECTS = 256;

/**
 * The mask as rectangles: each row's runs of masked pixels, a run continued from the row above
 * with the same columns growing that rectangle. Null when it takes more than `max` rectangles (a
 * scattered mask: the caller then leaves it out, and the comparison sees every pixel).
 */
export function maskRects(mask: VolatileMask, max = MAX_IGNORE_RECTS): Rect[] | null {
  const rects: Rect[] = [];
  let open = new Map<string, Rect>();
  for (let y = 0; y < mask.height; y++) {
    const next = new Map<string, Rect>();
    const row = y * mask.width;
    for (let x = 0; x < mask.width;) {
      if (!mask.hasIndex(row + x)) {
        x++;
        continue;
      }
      const start = x;
      while (x < mask.width && mask.hasIndex(row + x)) x++;
      const key = `${start}:${x}`;
      const above = open.get(key);
      if (above) {
        above.height++;
        next.set(key, above);
      } else {
        const rect = { x: start, y, width: x - start, height: 1 };
        rects.push(rect);
        if (rects.length > max) return null;
        next.set(key, rect);
      }
    }
    open = next;
  }
  return rects;
}

/**
 * The rectangles to send for a frame of `frame` pixels: the ignore regions, scaled from the host's
 * coordinate space, and the mask's, when the mask has this frame's size and all of them fit in what
 * the host takes (otherwise the mask is left out: every pixel it covers is compared, which can
 * only refuse more).
 */
export function frameIgnore(
  frame: { width: number; height: number },
  mask: VolatileMask | null,
  regions: Rect[],
  space: { width: number; height: number },
): Rect[] {
  const fromRegions = pixelRects(regions, frame, space).map((r) => ({
    x: r.x0,
    y: r.y0,
    width: r.x1 - r.x0,
    height: r.y1 - r.y0,
  }));
  const usable =
    mask !== null && mask.size > 0 && mask.width === frame.width && mask.height === frame.height;
  const fromMask = usable ? maskRects(mask, MAX_IGNORE_RECTS - fromRegions.length) : null;
  return [...fromRegions, ...(fromMask ?? [])];
}
