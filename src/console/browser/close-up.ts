/**
 * The close-up of where an action lands: the screen around it, larger, with the same marks; the
 * whole target where the outline places it.
 */
import { h, s } from './dom';
import { drawMarks, markRadius, placeOutside } from './screen-marks';
import { drawField, screenUrl } from './screens';
import type { Action, Rect } from './api-types';
import type { Focus } from './typing-focus';

/**
 * A close-up of where an action lands: the screen around the point at twice its size, with the
 * same marks. Null for actions without a place (a key, typing with no known field).
 * @param o `target`: where the outline placed what the action lands on; the close-up shows it whole
 */
export function closeUp(o: {
  runId: string;
  n: number;
  width: number | null;
  height: number | null;
  action: Action | null;
  focus?: Focus | null;
  target?: Rect | null;
}): HTMLElement | null {
  const width = o.width ?? 1280;
  const height = o.height ?? 800;
  const a = o.action;
  let point: { x: number; y: number } | null = null;
  if (a && typeof a.x === 'number' && typeof a.y === 'number' && a.action !== 'type') {
    point = { x: a.x, y: a.y };
  } else if (a?.action === 'type' && o.focus) {
    point = o.focus;
  }
  if (!point) return null;
  const target = o.target ?? null;
  // 160 x 90 points around the point (around the whole target, with room for its mark, where the
  // outline places it), kept inside the screen.
  const room = 16;
  const want = target
    ? { width: target.width + 2 * room, height: target.height + 2 * room }
    : { width: 0, height: 0 };
  const zoom = Math.max(1, want.width / 160, want.height / 90);
  const w = Math.min(160 * zoom, width);
  const hgt = Math.min(90 * zoom, height);
  const cx = target ? target.x + target.width / 2 : point.x;
  const cy = target ? target.y + target.height / 2 : point.y;
  const x0 = Math.min(Math.max(0, cx - w / 2), width - w);
  const y0 = Math.min(Math.max(0, cy - hgt / 2), height - hgt);
  const image = s('image', { x: 0, y: 0, width, height, preserveAspectRatio: 'none' });
  const svg = s(
    'svg',
    {
      class: 'closeup-svg',
      viewBox: `${x0} ${y0} ${w} ${hgt}`,
      'aria-hidden': 'true',
      focusable: 'false',
    },
    image,
  );
  svg.setAttribute('data-x0', String(x0));
  svg.setAttribute('data-y0', String(y0));
  svg.setAttribute('data-w', String(w));
  svg.setAttribute('data-h', String(hgt));
  drawMarks(svg, a, o.focus, markRadius(width, height, 'full'), target);
  placeOutside(svg);
  const focus = o.focus;
  if (a?.action === 'type' && focus && target) {
    drawField(svg, null, focus, width, height, markRadius(width, height, 'full'), target);
  }
  screenUrl(o.runId, o.n).then(
    (url) => {
      image.setAttribute('href', url);
      if (a?.action !== 'type' || !focus || target) return;
      const img = new Image();
      const r = markRadius(width, height, 'full');
      img.addEventListener('load', () => drawField(svg, img, focus, width, height, r), {
        once: true,
      });
      img.src = url;
    },
    () => undefined,
  );
  return h(
    'figure',
    { class: 'closeup' },
    svg,
    h(
      'figcaption',
      {},
      `Close-up${zoom === 1 ? ' at twice the size' : ''}: x ${Math.round(x0)} to ${Math.round(x0 + w)}, y ${Math.round(y0)} to ${Math.round(y0 + hgt)}.`,
    ),
  );
}
