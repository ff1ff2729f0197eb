/**
 * The pixels around a point as connected components, pure TypeScript: the first steps of finding a
 * text line (text-line.ts) and a field's label (field-label-line.ts).
 *
 * 1. A window around the point (±200 × ±40 px at 1×, or a given reach) is turned to grey.
 * 2. The background at the point is a peak of the grey histogram near it; each of up to three
 *    peaks is tried, because a click can land on a glyph stroke or near a button's edge.
 * 3. Pixels that differ from that background by at least CONTRAST, on the text's side (darker or
 *    lighter), form connected components. Frames, rules and filled boxes are recognised by their
 *    shape and act as barriers; components cut by the window's edge are dropped.
 */

/** A screenshot's pixels; a canvas's ImageData is one too, hence the looser array type. */
export interface RgbaImage {
  width: number;
  height: number;
  /** width × height × 4 bytes, RGBA, row by row. */
  data: Uint8Array | Uint8ClampedArray;
}

/** Minimum grey difference between a glyph pixel and the background. */
const CONTRAST = 56;

export interface Component {
  id: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  width: number;
  height: number;
  pixels: number;
  /** A frame, rule or filled box: never text, and a barrier between texts. */
  barrier: boolean;
  /** Cut by the window's edge (not the screen's): only part of it is visible. */
  cut: boolean;
}

export interface Window {
  x0: number;
  y0: number;
  width: number;
  height: number;
  grey: Uint8Array;
  /** The point, in window coordinates. */
  px: number;
  py: number;
  /** The scale of text in pixels relative to the coordinate space (2 on a HiDPI screen). */
  scale: number;
  /** Whether each edge of the window is the screen's edge. */
  edges: { left: boolean; right: boolean; top: boolean; bottom: boolean };
}

export interface Analysis {
  window: Window;
  background: number;
  /** Text darker than the background (true) or lighter. */
  dark: boolean;
  labels: Int32Array;
  components: Component[];
}

/** How far a window reaches from its point, in 1× pixels. */
export interface Reach {
  left: number;
  right: number;
  up: number;
  down: number;
}
export const AROUND: Reach = { left: 200, right: 200, up: 40, down: 40 };

export function greyWindow(
  image: RgbaImage,
  px: number,
  py: number,
  scale: number,
  reach: Reach = AROUND,
): Window {
  const x0 = Math.max(0, px - Math.round(reach.left * scale));
  const x1 = Math.min(image.width, px + Math.round(reach.right * scale) + 1);
  const y0 = Math.max(0, py - Math.round(reach.up * scale));
  const y1 = Math.min(image.height, py + Math.round(reach.down * scale) + 1);
  const width = x1 - x0;
  const height = y1 - y0;
  const grey = new Uint8Array(width * height);
  const d = image.data;
  for (let y = 0; y < height; y++) {
    let i = ((y0 + y) * image.width + x0) * 4;
    const row = y * width;
    for (let x = 0; x < width; x++, i += 4) {
      grey[row + x] = (d[i] * 77 + d[i + 1] * 150 + d[i + 2] * 29) >> 8;
    }
  }
  return {
    x0,
    y0,
    width,
    height,
    grey,
    px: px - x0,
    py: py - y0,
    scale,
    edges: {
      left: x0 === 0,
      right: x1 === image.width,
      top: y0 === 0,
      bottom: y1 === image.height,
    },
  };
}

/** Background candidates: peaks of the grey histogram near the point, biggest first. */
export function backgrounds(w: Window): { background: number; dark: boolean }[] {
  const rx = Math.round(20 * w.scale);
  const ry = Math.round(8 * w.scale);
  const hist = new Uint32Array(256);
  let total = 0;
  for (let y = Math.max(0, w.py - ry); y < Math.min(w.height, w.py + ry + 1); y++) {
    for (let x = Math.max(0, w.px - rx); x < Math.min(w.width, w.px + rx + 1); x++) {
      hist[w.grey[y * w.width + x]]++;
      total++;
    }
  }
  const smooth = new Float64Array(256);
  for (let v = 0; v < 256; v++) {
    for (let d = -4; d <= 4; d++) if (v + d >= 0 && v + d < 256) smooth[v] += hist[v + d];
  }
  const peaks: { v: number; mass: number }[] = [];
  for (let v = 0; v < 256; v++) {
    if (smooth[v] < 0.1 * total) continue;
    if ((v > 0 && smooth[v - 1] > smooth[v]) || (v < 255 && smooth[v + 1] > smooth[v])) continue;
    peaks.push({ v, mass: smooth[v] });
  }
  peaks.sort((a, b) => b.mass - a.mass);
  const out: { background: number; dark: boolean }[] = [];
  for (const { v } of peaks) {
    if (out.length === 3) break;
    if (out.some((c) => Math.abs(c.background - v) < CONTRAST / 2)) continue;
    let darker = 0;
    let lighter = 0;
    for (let g = 0; g < 256; g++) {
      if (g <= v - CONTRAST) darker += hist[g];
      else if (g >= v + CONTRAST) lighter += hist[g];
    }
    out.push({ background: v, dark: darker > lighter || (darker === lighter && v >= 128) });
  }
  return out;
}

const UNSEEN = -1;
const PAPER = -2;

export function analyse(w: Window, background: number, dark: boolean): Analysis {
  const { width, height, grey } = w;
  const n = width * height;
  const lo = background - CONTRAST;
  const hi = background + CONTRAST;
  const isInk = (v: number) => (dark ? v <= lo : v >= hi);
  const labels = new Int32Array(n).fill(UNSEEN);
  const stack = new Int32Array(n);
  const components: Component[] = [];

  for (let i = 0; i < n; i++) {
    if (labels[i] !== UNSEEN) continue;
    if (!isInk(grey[i])) {
      labels[i] = PAPER;
      continue;
    }
    const c: Component = {
      id: components.length,
      minX: width,
      minY: height,
      maxX: -1,
      maxY: -1,
      width: 0,
      height: 0,
      pixels: 0,
      barrier: false,
      cut: false,
    };
    components.push(c);
    labels[i] = c.id;
    let sp = 0;
    stack[sp++] = i;
    while (sp > 0) {
      const j = stack[--sp];
      const x = j % width;
      const y = (j - x) / width;
      c.pixels++;
      if (x < c.minX) c.minX = x;
      if (x > c.maxX) c.maxX = x;
      if (y < c.minY) c.minY = y;
      if (y > c.maxY) c.maxY = y;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1); yy++) {
        for (let xx = Math.max(0, x - 1); xx <= Math.min(width - 1, x + 1); xx++) {
          const k = yy * width + xx;
          if (labels[k] !== UNSEEN) continue;
          if (isInk(grey[k])) {
            labels[k] = c.id;
            stack[sp++] = k;
          } else {
            labels[k] = PAPER;
          }
        }
      }
    }
  }

  // Ink on each edge of a component's box: frames have full edges, glyphs do not.
  const m = components.length;
  const top = new Int32Array(m);
  const bottom = new Int32Array(m);
  const left = new Int32Array(m);
  const right = new Int32Array(m);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const l = labels[y * width + x];
      if (l < 0) continue;
      const c = components[l];
      if (y === c.minY) top[l]++;
      if (y === c.maxY) bottom[l]++;
      if (x === c.minX) left[l]++;
      if (x === c.maxX) right[l]++;
    }
  }
  const s = w.scale;
  for (const c of components) {
    const cw = c.maxX - c.minX + 1;
    const ch = c.maxY - c.minY + 1;
    c.width = cw;
    c.height = ch;
    const fill = c.pixels / (cw * ch);
    c.barrier =
      (ch <= 3 * s && cw >= 12 * s) || // horizontal rule
      (cw <= 3 * s && ch >= 28 * s) || // vertical rule
      ch > 64 * s ||
      cw > 360 * s || // a background, not a glyph
      (cw >= 16 * s && fill <= 0.2 && Math.max(top[c.id], bottom[c.id]) >= 0.8 * cw) || // frame or bevel
      (cw >= 12 * s && ch >= 12 * s && fill >= 0.9) || // filled box
      (cw >= 12 * s &&
        ch >= 12 * s &&
        top[c.id] >= 0.8 * cw &&
        bottom[c.id] >= 0.8 * cw &&
        left[c.id] >= 0.8 * ch &&
        right[c.id] >= 0.8 * ch); // closed box
    c.cut =
      (c.minX === 0 && !w.edges.left) ||
      (c.maxX === width - 1 && !w.edges.right) ||
      (c.minY === 0 && !w.edges.top) ||
      (c.maxY === height - 1 && !w.edges.bottom);
  }
  return { window: w, background, dark, labels, components };
}

/** True when a barrier pixel lies on the straight path between two points. */
export function blocked(a: Analysis, ax: number, ay: number, bx: number, by: number): boolean {
  const { labels, components } = a;
  const width = a.window.width;
  const steps = Math.max(Math.abs(bx - ax), Math.abs(by - ay), 1);
  for (let i = 0; i <= steps; i++) {
    const x = Math.round(ax + ((bx - ax) * i) / steps);
    const y = Math.round(ay + ((by - ay) * i) / steps);
    const l = labels[y * width + x];
    if (l >= 0 && components[l].barrier) return true;
  }
  return false;
}

/** True when a barrier pixel lies in columns (ax, bx) within rows [top, bottom]. */
export function barrierBetween(
  a: Analysis,
  ax: number,
  bx: number,
  top: number,
  bottom: number,
): boolean {
  const { labels, components } = a;
  const width = a.window.width;
  for (let y = top; y <= bottom; y++) {
    for (let x = ax + 1; x < bx; x++) {
      const l = labels[y * width + x];
      if (l >= 0 && components[l].barrier) return true;
    }
  }
  return false;
}
