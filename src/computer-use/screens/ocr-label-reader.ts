/**
 * Reads the label at a point from a screenshot's pixels (DESIGN §5: the second label source, used
 * where the screen outline names nothing). Fully offline: tesseract.js with the eng and deu
 * traineddata from npm, one long-lived worker.
 *
 * Tesseract alone is slow and easily confused on a raw crop of a UI (frames read as `|`, half
 * words at the crop's edges, 40–60 ms per crop). So the text is first found in plain TypeScript:
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
 * 5. Only that line's glyphs are drawn, dark on white, scaled to about 32 px high, and tesseract
 *    reads it as a single line. Words it is less sure of than `minConfidence` are dropped.
 */
import { copyFile, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { decodePng as decodeScreenPng } from './png-decoder';
import { ScreenError } from './screen-error';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

export interface RgbaImage {
  width: number;
  height: number;
  /** width × height × 4 bytes, RGBA, row by row. */
  data: Uint8Array | Uint8ClampedArray;
}

export interface OcrLabel {
  text: string;
  /** Tesseract's mean word confidence of the words kept, 0–100. */
  confidence: number;
}

/** The coordinate space x and y are in, when it differs from the image's pixels (HiDPI). */
export interface CoordinateSpace {
  width: number;
  height: number;
}

export interface OcrLabelReaderOptions {
  /** Words read with less confidence are dropped; nothing left means no label. Default 40. */
  minConfidence?: number;
  /** One read may take this long before the worker is restarted and the read fails. Default 5000. */
  timeoutMs?: number;
  /**
   * Default deu+eng. Each language adds a fixed cost to every read (about 7 ms here), so an
   * agent whose screens are in one language may pass just that one.
   */
  languages?: readonly OcrLanguage[];
}

export class OcrImageError extends Error {
  readonly code = 'ocr_image_invalid';
}

export class OcrError extends Error {
  readonly code = 'ocr_failed';
}

/** Loading tesseract and both languages takes about a second; this much means it is stuck. */
const START_TIMEOUT_MS = 60_000;

/** Screens larger than this are refused before decoding (a PNG can claim any size). */
export const MAX_IMAGE_PIXELS = 8192 * 8192;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Decodes a PNG to RGBA (8-bit, straight alpha), refusing anything that is not a PNG or is too large, with a clear error. */
export function decodePng(png: Buffer): RgbaImage {
  if (!Buffer.isBuffer(png) || png.length < 33 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw new OcrImageError('the screenshot is not a PNG');
  }
  if (png.toString('latin1', 12, 16) !== 'IHDR') {
    throw new OcrImageError('the screenshot is a broken PNG (no IHDR chunk)');
  }
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (width === 0 || height === 0 || width * height > MAX_IMAGE_PIXELS) {
    throw new OcrImageError(`the screenshot's size ${width}×${height} is not allowed`);
  }
  try {
    // The screens' decoder: the same checks as every other PNG Warden reads, and about five
    // times faster than pngjs on screenshots.
    const { rgba } = decodeScreenPng(png);
    return { width, height, data: rgba };
  } catch (e) {
    if (!(e instanceof ScreenError)) throw e;
    throw new OcrImageError(`the screenshot is a broken PNG: ${e.message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Finding the text line at a point (pure)

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

function greyWindow(image: RgbaImage, px: number, py: number, scale: number): Window {
  const halfW = Math.round(200 * scale);
  const halfH = Math.round(40 * scale);
  const x0 = Math.max(0, px - halfW);
  const x1 = Math.min(image.width, px + halfW + 1);
  const y0 = Math.max(0, py - halfH);
  const y1 = Math.min(image.height, py + halfH + 1);
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
  if (!seed) return null;

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
  return { analysis: a, members, minX, maxX, top, bottom, distance: Math.sqrt(best) };
}

/**
 * The line of text under or nearest the point (image pixels), or null when there is none within
 * reach. `scale` is the size of text relative to a 1× screen (2 on a HiDPI screenshot).
 */
export function findTextLine(image: RgbaImage, x: number, y: number, scale = 1): TextLine | null {
  const w = greyWindow(image, x, y, scale);
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

/** Height tesseract likes best for a line, in pixels. */
const TARGET_HEIGHT = 32;
const MAX_LINE_WIDTH = 1600;
const INK_GAMMA = 1.3;

/**
 * Draws only the line's glyphs, dark on white, scaled so the line is about TARGET_HEIGHT pixels
 * high, with a white margin: a clean single line for tesseract, as a binary PGM (P5), which
 * Leptonica reads without a codec.
 */
export function renderTextLine(line: TextLine): { pgm: Buffer; width: number; height: number } {
  const { analysis: a, members, minX, maxX, top, bottom } = line;
  const { width: ww, height: wh, grey } = a.window;
  const { labels, background, dark } = a;
  const member = (l: number) => l >= 0 && members.has(l);

  let contrast = 1;
  for (let y = top; y <= bottom; y++) {
    for (let x = minX; x <= maxX; x++) {
      if (member(labels[y * ww + x]))
        contrast = Math.max(contrast, Math.abs(grey[y * ww + x] - background));
    }
  }
  // Source: the line's box plus one pixel, keeping the anti-aliased rims of member glyphs.
  const sw = maxX - minX + 3;
  const sh = bottom - top + 3;
  const ink = new Float32Array(sw * sh);
  for (let y = 0; y < sh; y++) {
    for (let x = 0; x < sw; x++) {
      const X = minX - 1 + x;
      const Y = top - 1 + y;
      if (X < 0 || Y < 0 || X >= ww || Y >= wh) continue;
      let near = false;
      for (let dy = -1; dy <= 1 && !near; dy++) {
        for (let dx = -1; dx <= 1 && !near; dx++) {
          const xx = X + dx;
          const yy = Y + dy;
          near = xx >= 0 && yy >= 0 && xx < ww && yy < wh && member(labels[yy * ww + xx]);
        }
      }
      if (!near) continue;
      const g = grey[Y * ww + X];
      const d = dark ? background - g : g - background;
      // A little gamma thins anti-aliased rims, so "rn" is less often read as "m".
      ink[y * sw + x] = Math.max(0, Math.min(1, d / contrast)) ** INK_GAMMA;
    }
  }

  // Small text is scaled up (at most 6×, and to at most MAX_LINE_WIDTH: tesseract's time grows
  // with the line's length, and a long line is not a button's label anyway).
  const s = Math.max(
    1,
    Math.min(6, Math.round(TARGET_HEIGHT / (bottom - top + 1)), Math.floor(MAX_LINE_WIDTH / sw)),
  );
  const pad = Math.round(TARGET_HEIGHT / 3);
  const width = sw * s + 2 * pad;
  const height = sh * s + 2 * pad;
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1');
  const out = Buffer.alloc(header.length + width * height, 255);
  header.copy(out);
  for (let y = 0; y < sh * s; y++) {
    const fy = (y + 0.5) / s - 0.5;
    const iy = Math.max(0, Math.min(sh - 1, Math.floor(fy)));
    const ay = Math.min(Math.max(fy - iy, 0), 1);
    const iy1 = Math.min(sh - 1, iy + 1);
    const row = header.length + (y + pad) * width + pad;
    for (let x = 0; x < sw * s; x++) {
      const fx = (x + 0.5) / s - 0.5;
      const ix = Math.max(0, Math.min(sw - 1, Math.floor(fx)));
      const ax = Math.min(Math.max(fx - ix, 0), 1);
      const ix1 = Math.min(sw - 1, ix + 1);
      const v =
        ink[iy * sw + ix] * (1 - ax) * (1 - ay) +
        ink[iy * sw + ix1] * ax * (1 - ay) +
        ink[iy1 * sw + ix] * (1 - ax) * ay +
        ink[iy1 * sw + ix1] * ax * ay;
      out[row + x] = 255 - Math.round(v * 255);
    }
  }
  return { pgm: out, width, height };
}

// ---------------------------------------------------------------------------------------------
// The reader (I/O: a tesseract worker thread)

/** The languages with traineddata installed from npm (`@tesseract.js-data/<lang>`). */
export type OcrLanguage = 'deu' | 'eng';
/** German first: it read umlauts right where English dropped them, and reads English labels. */
export const DEFAULT_LANGUAGES: readonly OcrLanguage[] = ['deu', 'eng'];

function trainedData(lang: string): string {
  const pkg = require.resolve(`@tesseract.js-data/${lang}/package.json`);
  return join(dirname(pkg), '4.0.0_best_int', `${lang}.traineddata.gz`);
}

interface TesseractWord {
  text: string;
  confidence: number;
}

/**
 * The words of tesseract's TSV output (level 5 rows: `5 page block par line word left top width
 * height conf text`). TSV is asked for rather than the block tree, which carries every symbol
 * and its alternatives across the thread boundary.
 */
export function wordsOfTsv(tsv: unknown): TesseractWord[] {
  if (typeof tsv !== 'string') return [];
  const out: TesseractWord[] = [];
  for (const row of tsv.split('\n')) {
    const cols = row.split('\t');
    if (cols[0] !== '5' || cols.length < 12) continue;
    const confidence = Number(cols[10]);
    const text = cols.slice(11).join(' ').trim();
    if (text !== '' && Number.isFinite(confidence)) out.push({ text, confidence });
  }
  return out;
}

/**
 * One long-lived tesseract.js worker (deu+eng by default, LSTM, single-line mode), started on first use or
 * by `start()`. Reads are queued one at a time; a read that hangs past `timeoutMs` fails and the
 * worker is replaced. Safe to share across runs; `close()` when done (a Nest provider's
 * `onModuleDestroy` calls it).
 */
export class OcrLabelReader {
  private readonly minConfidence: number;
  private readonly timeoutMs: number;
  private readonly languages: readonly OcrLanguage[];
  private worker: Promise<Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly pending = new Set<(e: Error) => void>();

  constructor(options: OcrLabelReaderOptions = {}) {
    this.minConfidence = options.minConfidence ?? 40;
    this.timeoutMs = options.timeoutMs ?? 5000;
    const languages = options.languages ?? DEFAULT_LANGUAGES;
    if (languages.length === 0 || languages.some((l) => !DEFAULT_LANGUAGES.includes(l))) {
      throw new OcrError(`OCR languages must be among ${DEFAULT_LANGUAGES.join(', ')}`);
    }
    this.languages = [...new Set(languages)];
  }

  /** Starts the worker now (about a second) instead of on the first read. */
  async start(): Promise<void> {
    await this.startedWithin(START_TIMEOUT_MS);
  }

  /**
   * The label at (x, y) of a PNG screenshot, or null when no text is within reach of the point.
   * `space` is the coordinate space x and y are in when it differs from the PNG's pixels
   * (the host's `X-Screen-Width`/`-Height` on a HiDPI screen). A broken or oversized PNG rejects
   * with `OcrImageError`.
   */
  async readLabelAt(
    png: Buffer,
    x: number,
    y: number,
    space?: CoordinateSpace,
  ): Promise<OcrLabel | null> {
    return this.readLabelAtPixels(decodePng(png), x, y, space);
  }

  /** `readLabelAt` for a screenshot already decoded to RGBA (saves the decode). */
  async readLabelAtPixels(
    image: RgbaImage,
    x: number,
    y: number,
    space?: CoordinateSpace,
  ): Promise<OcrLabel | null> {
    if (this.closed) throw new OcrError('the OCR reader is closed');
    const { width, height, data } = image ?? ({} as Partial<RgbaImage>);
    if (
      width === undefined ||
      height === undefined ||
      !Number.isSafeInteger(width) ||
      !Number.isSafeInteger(height) ||
      width <= 0 ||
      height <= 0 ||
      !data ||
      data.length < width * height * 4
    ) {
      throw new OcrImageError('the screenshot pixels do not match its size');
    }
    const sx = space && space.width > 0 ? width / space.width : 1;
    const sy = space && space.height > 0 ? height / space.height : 1;
    const ix = Math.floor(x * sx);
    const iy = Math.floor(y * sy);
    if (
      !Number.isFinite(ix) ||
      !Number.isFinite(iy) ||
      ix < 0 ||
      iy < 0 ||
      ix >= width ||
      iy >= height
    ) {
      return null;
    }
    const line = findTextLine(image, ix, iy, Math.max(1, Math.min(sx, sy)));
    if (!line) return null;
    const { pgm } = renderTextLine(line);
    const words = await this.recognise(pgm);
    const kept = words.filter((w) => w.confidence >= this.minConfidence && w.text.trim() !== '');
    const text = kept
      .map((w) => w.text.trim())
      .join(' ')
      .trim();
    if (!/[\p{L}\p{N}]/u.test(text)) return null;
    const confidence = Math.round(kept.reduce((s, w) => s + w.confidence, 0) / kept.length);
    return { text, confidence };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const abort of this.pending) abort(new OcrError('the OCR reader was closed'));
    await this.dropWorker();
  }

  async onModuleDestroy(): Promise<void> {
    await this.close();
  }

  private recognise(pgm: Buffer): Promise<TesseractWord[]> {
    const job = this.queue.then(() => this.runJob(pgm));
    this.queue = job.catch(() => undefined);
    return job;
  }

  private async runJob(pgm: Buffer): Promise<TesseractWord[]> {
    if (this.closed) throw new OcrError('the OCR reader was closed');
    const worker = await this.startedWithin(START_TIMEOUT_MS);
    let timer: NodeJS.Timeout | undefined;
    let abort: (e: Error) => void = () => undefined;
    const stop = new Promise<never>((_, reject) => {
      abort = reject;
      timer = setTimeout(
        () => reject(new OcrError(`OCR took longer than ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    this.pending.add(abort);
    try {
      const reading = worker.recognize(pgm, {}, { tsv: true, text: false });
      reading.catch(() => undefined); // it may still fail after a timeout; nobody is waiting then
      const result = await Promise.race([reading, stop]);
      return wordsOfTsv(result.data.tsv);
    } catch (e) {
      // A worker that timed out or failed may be stuck: start a fresh one for the next read.
      await this.dropWorker();
      throw e instanceof OcrError ? e : new OcrError(`OCR failed: ${String(e)}`);
    } finally {
      clearTimeout(timer);
      this.pending.delete(abort);
    }
  }

  private async startedWithin(ms: number): Promise<Worker> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new OcrError(`the OCR worker did not start within ${ms} ms`)),
        ms,
      );
    });
    try {
      return await Promise.race([this.getWorker(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private getWorker(): Promise<Worker> {
    if (this.closed) return Promise.reject(new OcrError('the OCR reader is closed'));
    if (!this.worker) {
      const starting: Promise<Worker> = spawnWorker(this.languages, () => {
        if (this.worker !== starting) return;
        // The thread died: fail the read in flight now rather than at its timeout.
        for (const abort of this.pending) abort(new OcrError('the OCR worker stopped'));
        void this.dropWorker();
      });
      this.worker = starting;
      starting.catch(() => {
        if (this.worker === starting) this.worker = null;
      });
    }
    return this.worker;
  }

  private async dropWorker(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (!w) return;
    try {
      await (await w).terminate();
    } catch {
      // it never started, or is already gone
    }
  }
}

/**
 * Starts a worker with no network: tesseract.js reads `<langPath>/<lang>.traineddata.gz` for
 * every language from one folder, and the two npm data packages are two folders, so a temporary
 * folder links both; it is removed as soon as the data is loaded. `cacheMethod: 'none'` stops
 * tesseract.js writing a copy into the working directory.
 */
async function spawnWorker(
  languages: readonly OcrLanguage[],
  onDeath: () => void,
): Promise<Worker> {
  const dir = await mkdtemp(join(tmpdir(), 'warden-ocr-'));
  try {
    for (const lang of languages) {
      const from = trainedData(lang);
      const to = join(dir, `${lang}.traineddata.gz`);
      await symlink(from, to).catch(() => copyFile(from, to));
    }
    const worker = await createWorker(languages.join('+'), OEM.LSTM_ONLY, {
      langPath: dir,
      gzip: true,
      cacheMethod: 'none',
      logger: () => undefined,
      // Without a handler tesseract.js rethrows a failed job inside a message listener, which
      // would take the whole process down.
      errorHandler: () => undefined,
    });
    await worker.setParameters({
      tessedit_pageseg_mode: PSM.SINGLE_LINE,
      // Stops "Estimating resolution" on stdout; the line is drawn at a known size anyway.
      user_defined_dpi: '300',
      // The line is drawn dark on white, so the inverted retry would only cost time.
      tessedit_do_invert: '0',
      debug_file: '/dev/null',
    });
    // The thread must not keep the process alive on its own, and its death must not crash it.
    const thread = (worker as unknown as { worker?: NodeJS.EventEmitter & { unref?: () => void } })
      .worker;
    thread?.on('error', onDeath);
    thread?.on('exit', onDeath);
    thread?.unref?.();
    return worker;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
