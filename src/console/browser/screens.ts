/**
 * Screenshots with the action drawn on them. A screenshot is fetched with the token (an <img>
 * cannot send the Authorization header) and shown from a blob: URL. The marks are SVG in the
 * step's own coordinate space (the screen host's X-Screen-Width/Height, which actions use): the
 * SVG's viewBox is that space and it is stretched over the displayed image, so a mark at the
 * action's x, y lands on the same pixel at any displayed size, and on HiDPI PNGs too.
 */
import { apiFile } from './api';
import { drawChanges } from './changes';
import { drawRail } from './rail';
import { h, s } from './dom';
import {
  drawMarks,
  markRadius,
  placeNow,
  placeOutside,
  rectOutside,
  ring,
  typeBadge,
} from './screen-marks';
import type { Action, Change, Rect, VolatileRegions } from './api-types';
import { fieldAround } from './field-around';
import type { Focus } from './typing-focus';

const MAX_CACHED = 240;
const cache: Map<string, Promise<string>> = new Map();
/** Why a fetched screen's PNG is damaged (`X-Screen-Damaged`), by `runId/n`. */
const damaged: Map<string, string> = new Map();

/**
 * A blob: URL of the PNG a step saw. Screens never change (the API serves them immutable), so
 * each is fetched once per tab; the oldest are let go past MAX_CACHED.
 */
export function screenUrl(runId: string, n: number) {
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
 * Where typing goes: the field's dashed outline, outside it (the outline's place for the field
 * where the host gave one, else the field found in the pixels around the point the run clicked),
 * or, when neither places a field, a ring at that point.
 * @param img a loaded screenshot (null: the field is placed already)
 * @param placed the field as the screen host's outline placed it
 */
export function drawField(
  overlay: SVGSVGElement,
  img: HTMLImageElement | null,
  focus: Focus,
  width: number,
  height: number,
  r: number,
  placed: Rect | null = null,
) {
  const field = placed ?? (img ? fieldAround(img, focus, width, height) : null);
  if (!field) {
    overlay.append(ring(focus.x, focus.y, r * 0.6, 'focus'));
    return;
  }
  overlay.append(fieldOutline(field));
  placeNow(overlay);
}

/** The dashed outline of the field typing goes into, drawn outside it: `data-*` say the field. */
function fieldOutline(field: Rect) {
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
 */
function drawVolatile(
  overlay: SVGSVGElement,
  volatile: VolatileRegions,
  width: number,
  height: number,
) {
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
 * @param o `changes`: a held commit's change list, its fields outlined (changes.ts); `flagged`: text
 *   the injection rail flagged (rail.ts); `target`: where the outline placed what the action
 *   lands on (the marks go around it)
 */
export function screenView(o: {
  runId: string;
  n: number;
  width: number | null;
  height: number | null;
  action: Action | null;
  why: string | null;
  focus?: Focus | null;
  size: 'full' | 'thumb';
  alt: string;
  volatile?: VolatileRegions | null;
  changes?: Change[] | null;
  flagged?: Rect | null;
  target?: Rect | null;
}): HTMLElement {
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
  const sayDamaged = (why: string) => {
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
    (error: unknown) => {
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
