/**
 * Where SAP GUI's elements are in the coordinate space of the host's screenshots and clicks.
 *
 * SAP GUI Scripting gives `ScreenLeft`, `ScreenTop`, `Width` and `Height` in screen pixels. The
 * host's helper declares itself DPI-aware, so its screenshots, its clicks and `X-Screen-Width`
 * are physical pixels. A DPI-aware SAP GUI reports physical pixels too; one that Windows scales
 * (DPI virtualisation) reports logical ones, smaller by the display's scale. Which it is is not
 * assumed: each window's own rectangle as SAP says it is compared with the rectangle Windows has
 * for its Handle (GetWindowRect, physical), and the elements are placed only when the two agree
 * as they are (a few pixels of frame aside) or by one scale on both axes. Otherwise nothing is
 * placed: the outline is refused, and Warden reads the pixels. Pure.
 */
import type { Rect } from '../../backend';
import type { SapGuiRefusal, WindowRect } from './sapgui-snapshot';

/** screen = sap × scale (a DPI-virtualised window is scaled about the screen's origin). */
export interface Placement {
  scale: number;
}

/** How far SAP's window edges may lie from Windows' (its invisible resize border, a frame). */
const FRAME_SLACK_PX = 16;
/** How far the two axes' scales may differ and still be one scale. */
const SCALE_TOLERANCE = 0.02;
/** The display scales Windows offers run from 100 % to 500 %. */
const MIN_SCALE = 1.1;
const MAX_SCALE = 5;

/**
 * How to place a window's elements, from SAP's rectangle of the window and Windows' (null: the
 * helper could not read it).
 */
export function placementOf(
  sap: Rect,
  os: WindowRect | null,
  windowId: string,
): Placement | SapGuiRefusal {
  if (os === null) {
    return {
      refused: 'geometry_unknown',
      detail: `Windows' rectangle of ${windowId} could not be read, so nothing places its elements on the screen`,
    };
  }
  const width = os.right - os.left;
  const height = os.bottom - os.top;
  if (sap.width <= 0 || sap.height <= 0) {
    return {
      refused: 'geometry_unknown',
      detail: `SAP GUI gives ${windowId} no size, so nothing places its elements on the screen`,
    };
  }
  const near = (a: number, b: number) => Math.abs(a - b) <= FRAME_SLACK_PX;
  if (
    near(width, sap.width) &&
    near(height, sap.height) &&
    near(os.left, sap.x) &&
    near(os.top, sap.y)
  ) {
    return { scale: 1 };
  }
  const sx = width / sap.width;
  const sy = height / sap.height;
  const scale = (sx + sy) / 2;
  if (
    Math.abs(sx - sy) <= SCALE_TOLERANCE * scale &&
    scale >= MIN_SCALE &&
    scale <= MAX_SCALE &&
    near(os.left, sap.x * scale) &&
    near(os.top, sap.y * scale)
  ) {
    return { scale };
  }
  return {
    refused: 'geometry_mismatch',
    detail: `SAP GUI places ${windowId} at ${sap.x},${sap.y} ${sap.width}x${sap.height}, Windows at ${os.left},${os.top} ${width}x${height}: no one scale maps the one onto the other, so its elements would be placed wrongly`,
  };
}

/** A rectangle SAP gave, in screen pixels: grown outward to whole pixels when scaled. */
export function place(rect: Rect, placement: Placement): Rect {
  const { scale } = placement;
  if (scale === 1) return { ...rect };
  const x = Math.floor(rect.x * scale);
  const y = Math.floor(rect.y * scale);
  return {
    x,
    y,
    width: Math.ceil((rect.x + rect.width) * scale) - x,
    height: Math.ceil((rect.y + rect.height) * scale) - y,
  };
}

/** The part of `a` inside `b`; null when they do not overlap. */
export function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  if (right <= x || bottom <= y) return null;
  return { x, y, width: right - x, height: bottom - y };
}

/** Whether two rectangles share any pixel. */
export function overlaps(a: Rect, b: Rect): boolean {
  return intersect(a, b) !== null;
}
