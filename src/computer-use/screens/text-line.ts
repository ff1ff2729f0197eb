/**
 * Finding the text line at a point of a screenshot, pure TypeScript (DESIGN §5: the OCR label
 * source). Tesseract alone is slow and easily confused on a raw crop of a UI (frames read as `|`,
 * half words at the crop's edges, 40–60 ms per crop), so the line is found here first and only it
 * is drawn for tesseract (text-line-render.ts):
 *
 * 1. A window around the point (±200 × ±40 px at 1×) is turned to grey.
 * 2. The background at the point is a peak of the grey histogram near it; each of up to three
 *    peaks is tried, because a click can land on a glyph stroke or near a button's edge.
 * 3. Pixels that differ from that background by at least CONTRAST, on the text's side (darker or
 *    lighter), form connected components. Frames, rules and filled boxes are recognised by their
 *    shape and act as barriers; components cut by the window's edge are dropped.
 * 4. The glyph nearest the point (not behind a barrier, within a few glyph heights) seeds a line;
 *    glyphs on the same baseline band with gaps under GAP × the band's height join it. That line
 *    is "the word or line under or nearest the point".
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
/** Glyphs join a line across gaps up to this many times the line's height. */
const GAP = 1.2;

interface Component {
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

interface Window {
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

interface Analysis {
  window: Window;
  background: number;
  /** Text darker than the background (true) or lighter. */
  dark: boolean;
  labels: Int32Array;
  components: Component[];
}

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

/** How far a window reaches from its point, in 1× pixels. */
export interface Reach {
  left: number;
  right: number;
  up: number;
  down: number;
}
const AROUND: Reach = { left: 200, right: 200, up: 40, down: 40 };

function greyWindow(
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
function backgrounds(w: Window): { background: number; dark: boolean }[] {
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

function analyse(w: Window, background: number, dark: boolean): Analysis {
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
function blocked(a: Analysis, ax: number, ay: number, bx: number, by: number): boolean {
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
function barrierBetween(a: Analysis, ax: number, bx: number, top: number, bottom: number): boolean {
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
function grow(a: Analysis, glyphs: Component[], seed: Component, distance: number): TextLine {
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
 * The label beside the text field around the point (DESIGN §5: "OCR beside the focused field"),
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
