/**
 * What of a window shows, given the windows stacked over it (pure): the outline has no z-order,
 * and Warden judges a click by the smallest element containing the point, so an element the host
 * serves must be on top where it is served. The stack is X's: the root window's viewable
 * children, bottom to top (x11-protocol.ts `stack`), menus, drop-down lists and tooltips among
 * them as override-redirect windows.
 */
import type { Rect } from '@warden/protocol';

export function intersection(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

export function contains(outer: Rect, inner: Rect): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

export function same(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** `rect` without `hole`: at most four rectangles (the bands above and below, the sides between). */
function subtract(rect: Rect, hole: Rect): Rect[] {
  const cut = intersection(rect, hole);
  if (!cut) return [rect];
  const parts: Rect[] = [];
  const right = rect.x + rect.width;
  const bottom = rect.y + rect.height;
  const cutRight = cut.x + cut.width;
  const cutBottom = cut.y + cut.height;
  if (cut.y > rect.y)
    parts.push({ x: rect.x, y: rect.y, width: rect.width, height: cut.y - rect.y });
  if (cutBottom < bottom) {
    parts.push({ x: rect.x, y: cutBottom, width: rect.width, height: bottom - cutBottom });
  }
  if (cut.x > rect.x)
    parts.push({ x: rect.x, y: cut.y, width: cut.x - rect.x, height: cut.height });
  if (cutRight < right) {
    parts.push({ x: cutRight, y: cut.y, width: right - cutRight, height: cut.height });
  }
  return parts;
}

/** What of `rect` none of `above` covers, as rectangles that do not overlap. */
export function uncoveredParts(rect: Rect, above: readonly Rect[]): Rect[] {
  let parts = [rect];
  for (const hole of above) parts = parts.flatMap((p) => subtract(p, hole));
  return parts;
}

/**
 * The part of `rect` none of `above` covers, when it is one rectangle (a window over one side of
 * it); null when it is covered, or when what shows of it is no rectangle (a menu over its corner):
 * an element served where it does not show would be judged for a click on the window over it.
 */
export function uncovered(rect: Rect, above: readonly Rect[]): Rect | null {
  const parts = uncoveredParts(rect, above);
  return parts.length === 1 ? parts[0] : null;
}

/**
 * Where the window AT-SPI describes as the screen lies in the stack: the lowest window with
 * exactly its rectangle (a window manager's frame is the rectangle GTK reports); else the
 * smallest that contains it, of equal ones the lowest; else -1, and every window counts as over
 * it. Lowest, so that of two windows that could be it, the other one counts as over it: what
 * could be covered is left out.
 */
export function placeInStack(stack: readonly Rect[], window: Rect | null): number {
  if (!window) return -1;
  const exact = stack.findIndex((w) => same(w, window));
  if (exact >= 0) return exact;
  let found = -1;
  stack.forEach((w, i) => {
    if (!contains(w, window)) return;
    if (found < 0 || w.width * w.height < stack[found].width * stack[found].height) found = i;
  });
  return found;
}

/**
 * The window over `base` that holds a popup's element: the lowest that contains its rectangle,
 * so that a window over the popup leaves out what it covers; null when none does (nothing tells
 * where the element is drawn).
 */
export function popupLayer(stack: readonly Rect[], base: number, rect: Rect): number | null {
  for (let i = base + 1; i < stack.length; i++) if (contains(stack[i], rect)) return i;
  return null;
}
