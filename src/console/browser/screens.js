// @ts-check
/**
 * Screenshots with the action drawn on them. A screenshot is fetched with the token (an <img>
 * cannot send the Authorization header) and shown from a blob: URL. The marks are SVG in the
 * step's own coordinate space (the screen host's X-Screen-Width/Height, which actions use): the
 * SVG's viewBox is that space and it is stretched over the displayed image, so a mark at the
 * action's x, y lands on the same pixel at any displayed size, and on HiDPI PNGs too.
 */
import { apiFile } from './api.js';
import { drawChanges } from './changes.js';
import { drawRail } from './rail.js';
import { h, s } from './dom.js';
import {
  drawMarks,
  markRadius,
  placeNow,
  placeOutside,
  rectOutside,
  ring,
  typeBadge,
} from './screen-marks.js';
import { clickLabel } from './words.js';

/** @typedef {import('./api-types.js').Action} Action */
/** @typedef {import('./api-types.js').Step} Step */
/** @typedef {{x: number, y: number, width: number, height: number}} Rect */
/**
 * Where typing goes, as far as the run tells: the point its last click landed on.
 * @typedef {{x: number, y: number, label: string, step: number}} Focus
 */

const MAX_CACHED = 240;
/** @type {Map<string, Promise<string>>} */
const cache = new Map();
/** Why a fetched screen's PNG is damaged (`X-Screen-Damaged`), by `runId/n`. */
/** @type {Map<string, string>} */
const damaged = new Map();

/**
 * A blob: URL of the PNG a step saw. Screens never change (the API serves them immutable), so
 * each is fetched once per tab; the oldest are let go past MAX_CACHED.
 * @param {string} runId
 * @param {number} n
 */
export function screenUrl(runId, n) {
  const key = `${runId}/${n}`;
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const url = apiFile(`/api/computer-use/runs/${runId}/steps/${n}/screen`, {
    accept: 'image/png',
  }).then(({ blob, headers }) => {
    const damage = headers.get('X-Screen-Damaged');
    if (damage) damaged.set(key, damage);
    return URL.createObjectURL(blob);
  });
  url.catch(() => cache.delete(key));
  cache.set(key, url);
  while (cache.size > MAX_CACHED) {
    const [oldest, old] = cache.entries().next().value ?? [];
    if (oldest === undefined || old === undefined) break;
    cache.delete(oldest);
    void old.then((u) => URL.revokeObjectURL(u)).catch(() => undefined);
  }
  return url;
}

/**
 * The field typing goes into, as the run tells it: the point of the last click that was sent
 * before step `n`, unless a key (Tab, Enter) may have moved the focus since. The same rule the
 * engine uses to know which field has focus.
 * @param {Step[]} steps
 * @param {number} n
 * @returns {Focus | null}
 */
export function typingFocus(steps, n) {
  const earlier = steps.filter((st) => st.n < n).sort((a, b) => b.n - a.n);
  for (const st of earlier) {
    if (st.outcome !== 'sent' && st.outcome !== 'sent_after_approval') continue;
    const a = st.action;
    if (!a) continue;
    if (
      (a.action === 'click' || a.action === 'double_click') &&
      typeof a.x === 'number' &&
      typeof a.y === 'number'
    ) {
      return { x: a.x, y: a.y, label: clickLabel(a, st.why), step: st.n };
    }
    if (a.action === 'key') return null;
  }
  return null;
}

/**
 * The field around a point, found in the screenshot's pixels: the area of the point's background
 * colour that is closed all around (a text field's inside), at most 60% of the screen wide and
 * 120 points high. Null when the area is open (no field there) or too small.
 * @param {HTMLImageElement} img a loaded screenshot
 * @param {{x: number, y: number}} point in the step's coordinate space
 * @param {number} width the step's coordinate space
 * @param {number} height
 * @returns {Rect | null}
 */
export function fieldAround(img, point, width, height) {
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
  /** @param {number} x @param {number} y */
  const at = (x, y) => {
    const i = (y * w + x) * 4;
    return (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
  };
  // The field's own colour: the most common one near the point (the point may sit on a letter).
  /** @type {Map<number, number>} */
  const counts = new Map();
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
  /** @param {number} c */
  const near = (c) =>
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
    const i = /** @type {number} */ (stack.pop());
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

/**
 * Where typing goes: the field's dashed outline, outside it (the outline's place for the field
 * where the host gave one, else the field found in the pixels around the point the run clicked),
 * or, when neither places a field, a ring at that point.
 * @param {SVGSVGElement} overlay
 * @param {HTMLImageElement | null} img a loaded screenshot (null: the field is placed already)
 * @param {Focus} focus
 * @param {number} width
 * @param {number} height
 * @param {number} r
 * @param {Rect | null} placed the field as the screen host's outline placed it
 */
export function drawField(overlay, img, focus, width, height, r, placed = null) {
  const field = placed ?? (img ? fieldAround(img, focus, width, height) : null);
  if (!field) {
    overlay.append(ring(focus.x, focus.y, r * 0.6, 'focus'));
    return;
  }
  overlay.append(fieldOutline(field));
  placeNow(overlay);
}

/**
 * The dashed outline of the field typing goes into, drawn outside it: `data-*` say the field.
 * @param {Rect} field
 */
function fieldOutline(field) {
  return rectOutside(
    field,
    {
      class: 'field-outline',
      'data-x': Math.round(field.x),
      'data-y': Math.round(field.y),
      'data-width': Math.round(field.width),
      'data-height': Math.round(field.height),
    },
    4,
  );
}

/**
 * The pixels that moved by themselves while the write was held, hatched: the resume leaves them
 * out of its comparison, so the approver sees what is not checked. Scaled from the screenshot's
 * pixels to the coordinate space the overlay draws in.
 * @param {SVGSVGElement} overlay
 * @param {{frame: {width: number, height: number}, rects: Rect[]}} volatile
 * @param {number} width
 * @param {number} height
 */
function drawVolatile(overlay, volatile, width, height) {
  const sx = width / volatile.frame.width;
  const sy = height / volatile.frame.height;
  for (const rect of volatile.rects) {
    overlay.append(
      s('rect', {
        class: 'volatile-region',
        'vector-effect': 'non-scaling-stroke',
        x: rect.x * sx,
        y: rect.y * sy,
        width: Math.max(rect.width * sx, 1),
        height: Math.max(rect.height * sy, 1),
      }),
    );
  }
}

/**
 * A screenshot with its action drawn on it.
 * @param {{
 *   runId: string, n: number, width: number | null, height: number | null,
 *   action: Action | null, why: string | null, focus?: Focus | null,
 *   size: 'full' | 'thumb', alt: string,
 *   volatile?: {frame: {width: number, height: number}, rects: Rect[]} | null,
 *   changes?: import('./api-types.js').Change[] | null,
 *   flagged?: Rect | null, target?: Rect | null
 * }} o `changes`: a held commit's change list, its fields outlined (changes.js); `flagged`: text
 *   the injection rail flagged (rail.js); `target`: where the outline placed what the action
 *   lands on (the marks go around it)
 * @returns {HTMLElement}
 */
export function screenView(o) {
  const width = o.width ?? 1280;
  const height = o.height ?? 800;
  const volatile = o.volatile ?? null;
  const img = h('img', { class: 'screen-img', alt: o.alt, decoding: 'async' });
  const overlay = s('svg', {
    class: 'overlay',
    viewBox: `0 0 ${width} ${height}`,
    preserveAspectRatio: 'none',
    'aria-hidden': 'true',
    focusable: 'false',
  });
  const frame = h('div', { class: `screen screen-${o.size}` }, img, overlay);
  frame.style.aspectRatio = `${width} / ${height}`;
  const r = markRadius(width, height, o.size);
  const a = o.action;
  if (volatile) drawVolatile(overlay, volatile, width, height);
  if (o.changes) drawChanges(overlay, o.changes);
  if (o.flagged) drawRail(overlay, o.flagged);
  drawMarks(overlay, a, o.focus, r, o.target ?? null);
  const target = o.target ?? null;
  if (a?.action === 'type' && o.focus && target) {
    drawField(overlay, null, o.focus, width, height, r, target);
  } else if (a?.action === 'type' && o.focus) {
    const focus = o.focus;
    img.addEventListener('load', () => drawField(overlay, img, focus, width, height, r), {
      once: true,
    });
  }
  placeOutside(overlay);
  if (a && (a.action === 'key' || a.action === 'type')) {
    const label =
      a.action === 'key'
        ? `Key ${String(a.key)}`
        : typeBadge(typeof a.text === 'string' ? a.text : '', o.size === 'thumb' ? 8 : 40);
    frame.append(h('span', { class: 'screen-badge', 'aria-hidden': 'true' }, label));
  }
  // A read's screen is stored as its host sent it (its data is not inflated on the read path): one
  // whose PNG is damaged (the API says so, or it does not open) says so, whatever a browser draws.
  const sayDamaged = (/** @type {string} */ why) => {
    if (frame.classList.contains('screen-missing')) return;
    frame.classList.add('screen-missing');
    frame.append(
      h('span', { class: 'screen-error' }, `The screen host sent a damaged screenshot: ${why}`),
    );
  };
  img.addEventListener('error', () => sayDamaged('it does not open'), { once: true });
  screenUrl(o.runId, o.n).then(
    (url) => {
      img.src = url;
      const damage = damaged.get(`${o.runId}/${o.n}`);
      if (damage) sayDamaged(damage);
    },
    (/** @type {unknown} */ error) => {
      frame.classList.add('screen-missing');
      frame.append(
        h(
          'span',
          { class: 'screen-error' },
          `No screenshot: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    },
  );
  return frame;
}
