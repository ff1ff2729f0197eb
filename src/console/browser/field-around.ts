/**
 * The field around a point of a screenshot, found in its pixels, where the screen host's outline
 * does not place it: for the dashed outline of the field typing goes into (screens.ts).
 */
import type { Rect } from './api-types';

/**
 * The field around a point, found in the screenshot's pixels: the area of the point's background
 * colour that is closed all around (a text field's inside), at most 60% of the screen wide and
 * 120 points high. Null when the area is open (no field there) or too small.
 * @param img a loaded screenshot
 * @param point in the step's coordinate space
 * @param width the step's coordinate space
 */
export function fieldAround(
  img: HTMLImageElement,
  point: { x: number; y: number },
  width: number,
  height: number,
): Rect | null {
  const sx = img.naturalWidth / width;
  const sy = img.naturalHeight / height;
  const px = Math.round(point.x * sx);
  const py = Math.round(point.y * sy);
  const reachX = Math.round(img.naturalWidth * 0.6);
  const reachY = Math.round(120 * sy);
  const x0 = Math.max(0, px - reachX);
  const y0 = Math.max(0, py - reachY);
  const w = Math.min(img.naturalWidth, px + reachX + 1) - x0;
  const hgt = Math.min(img.naturalHeight, py + reachY + 1) - y0;
  if (w <= 0 || hgt <= 0) return null;
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = hgt;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  ctx.drawImage(img, x0, y0, w, hgt, 0, 0, w, hgt);
  const data = ctx.getImageData(0, 0, w, hgt).data;
  const cx = px - x0;
  const cy = py - y0;
  /** @param y */
  const at = (x: number, y: number) => {
    const i = (y * w + x) * 4;
    return (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
  };
  // The field's own colour: the most common one near the point (the point may sit on a letter).
  const counts: Map<number, number> = new Map();
  for (let dy = -4; dy <= 4; dy++) {
    for (let dx = -4; dx <= 4; dx++) {
      const x = cx + dx;
      const y = cy + dy;
      if (x < 0 || y < 0 || x >= w || y >= hgt) continue;
      const c = at(x, y);
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
  }
  let background = -1;
  let best = 0;
  for (const [c, count] of counts) {
    if (count > best) [background, best] = [c, count];
  }
  const near = (c: number) =>
    Math.abs(((c >> 16) & 255) - ((background >> 16) & 255)) +
      Math.abs(((c >> 8) & 255) - ((background >> 8) & 255)) +
      Math.abs((c & 255) - (background & 255)) <=
    30;
  // Start from the nearest pixel of that colour, then fill.
  let start = -1;
  for (let r = 0; r <= 4 && start < 0; r++) {
    for (let dy = -r; dy <= r && start < 0; dy++) {
      for (let dx = -r; dx <= r && start < 0; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        if (x >= 0 && y >= 0 && x < w && y < hgt && near(at(x, y))) start = y * w + x;
      }
    }
  }
  if (start < 0) return null;
  const seen = new Uint8Array(w * hgt);
  const stack = [start];
  seen[start] = 1;
  let [minX, minY, maxX, maxY] = [w, hgt, -1, -1];
  while (stack.length) {
    const i = stack.pop() as number;
    const x = i % w;
    const y = (i - x) / w;
    // Reaching the edge of the searched area means the area is open: not a field.
    if (x === 0 || y === 0 || x === w - 1 || y === hgt - 1) return null;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    for (const j of [i - 1, i + 1, i - w, i + w]) {
      if (!seen[j] && near(at(j % w, Math.floor(j / w)))) {
        seen[j] = 1;
        stack.push(j);
      }
    }
  }
  if (maxX - minX < 6 * sx || maxY - minY < 6 * sy) return null;
  // The inside plus its border, back in the step's coordinate space.
  return {
    x: (x0 + minX - 1) / sx,
    y: (y0 + minY - 1) / sy,
    width: (maxX - minX + 3) / sx,
    height: (maxY - minY + 3) / sy,
  };
}
