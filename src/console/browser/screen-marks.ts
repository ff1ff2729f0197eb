/**
 * An action's marks on a screenshot, as SVG in the step's own coordinate space (see screens.ts): a
 * ring where a click lands, an arrow for a scroll; the label of typing; and the marks in words,
 * for the caption and for screen readers.
 */
import { s } from './dom';
import { actionInWords, characters, marked } from './words';
import type { Action, Rect, Step } from './api-types';
import type { Focus } from './typing-focus';

const contains = (r: Rect, x: number, y: number) =>
  x >= r.x && y >= r.y && x < r.x + r.width && y < r.y + r.height;

/**
 * Where the outline placed a step's target: the element a click landed on, or the field typing
 * goes into; null where nothing placed it.
 */
export function targetOf(step: Step | null | undefined): Rect | null {
  const a = step?.action;
  if (!step || !a) return null;
  const rect =
    a.action === 'type'
      ? (step.edit?.field.rect ?? step.staged?.field.rect ?? null)
      : step.label_evidence?.source === 'outline'
        ? (step.label_evidence.element.rect ?? null)
        : null;
  if (!rect || ![rect.x, rect.y, rect.width, rect.height].every(Number.isFinite)) return null;
  return rect;
}

/**
 * The label of typing on a screenshot: the text with its marks when it fits, else only how long
 * it is. A shortened text is never shown: its start could read as a whole (the full text is in
 * the action's title).
 * @param room characters that fit
 */
export function typeBadge(text: string, room: number) {
  const shownText = marked(text);
  if ([...shownText].length <= room) return `Type “${shownText}”`;
  return `Type ${characters(text)} characters`;
}

/**
 * What the marks show, for the caption and for screen readers.
 * @param target where the outline placed the click's target
 */
export function marksInWords(
  action: Action | null,
  why: string | null,
  width: number,
  height: number,
  focus: Focus | null,
  target: Rect | null = null,
) {
  if (!action) return 'No action on this screen.';
  const space = `on the ${width} × ${height} screen the planner saw`;
  switch (action.action) {
    case 'click':
    case 'double_click': {
      const verb = action.action === 'click' ? 'click' : 'double-click';
      if (target) {
        return `The red frame goes around what the ${verb} lands on, outside it; the ${verb} lands at x ${String(action.x)}, y ${String(action.y)} ${space}.`;
      }
      return `The red ring marks where the ${verb} lands: x ${String(action.x)}, y ${String(action.y)} ${space}.`;
    }
    case 'type': {
      // The text itself is in the action's title, in full with its marks; not repeated here.
      const n = characters(typeof action.text === 'string' ? action.text : '');
      const text = `the ${n}-character text`;
      if (!focus) {
        return `Types ${text} into the field that has focus; the run's earlier steps do not show which (no click since its last key).`;
      }
      const label = focus.label ? ` “${focus.label}”` : '';
      return `Types ${text} into the field${label} clicked in step ${focus.step} at x ${focus.x}, y ${focus.y}; the field is outlined in dashes, outside it.`;
    }
    case 'key':
      return `Presses the key ${String(action.key)}; a key has no place on the screen.`;
    case 'scroll':
      return `The arrow marks where the scroll happens: x ${String(action.x)}, y ${String(action.y)} ${space}.`;
    default:
      return actionInWords(action, why);
  }
}

/**
 * A ring around a point with ticks outside it, in the step's coordinate space, for a click whose
 * target the outline does not place. Nothing is drawn inside the ring, so what is under the point
 * stays readable; the point itself is the ring's centre (`data-x`, `data-y`).
 */
export function ring(x: number, y: number, r: number, kind: string) {
  const common = { 'vector-effect': 'non-scaling-stroke', fill: 'none' };
  const inner = r * 1.15;
  const outer = r * 1.6;
  const ticks: Array<[number, number, number, number]> = [
    [x - outer, y, x - inner, y],
    [x + inner, y, x + outer, y],
    [x, y - outer, x, y - inner],
    [x, y + inner, x, y + outer],
  ];
  const lines = (cls: string) =>
    ticks.map(([x1, y1, x2, y2]) => s('line', { ...common, class: cls, x1, y1, x2, y2 }));
  return s(
    'g',
    { class: `marker marker-${kind}`, 'data-x': x, 'data-y': y },
    s('circle', { ...common, class: 'halo', cx: x, cy: y, r }),
    ...lines('halo'),
    s('circle', { ...common, class: 'ring', cx: x, cy: y, r }),
    ...lines('ring'),
  );
}

/** How far outside its target a mark's line runs, in CSS pixels (clear of its white halo). */
export const OUTSIDE_PX = 6;

/**
 * A rectangle drawn around `target`, OUTSIDE_PX (or `gap`) screen pixels outside it at any
 * displayed size (placeOutside sets its place once the picture's size is known): the mark never
 * covers what it marks.
 * @param target in the step's coordinate space
 * @param gap CSS pixels
 */
export function rectOutside(
  target: Rect,
  attrs: Record<string, string | number>,
  gap: number = OUTSIDE_PX,
) {
  const rect = s('rect', {
    'vector-effect': 'non-scaling-stroke',
    ...attrs,
    'data-outside': gap,
    'data-tx': target.x,
    'data-ty': target.y,
    'data-tw': target.width,
    'data-th': target.height,
  });
  placeRect(rect, 1, 1);
  return rect;
}

/**
 * @param rect made by rectOutside
 * @param sx CSS pixels per step point, across
 * @param sy and down
 */
function placeRect(rect: Element, sx: number, sy: number) {
  const n = (name: string) => Number(rect.getAttribute(name));
  const gx = n('data-outside') / sx;
  const gy = n('data-outside') / sy;
  rect.setAttribute('x', String(n('data-tx') - gx));
  rect.setAttribute('y', String(n('data-ty') - gy));
  rect.setAttribute('width', String(n('data-tw') + 2 * gx));
  rect.setAttribute('height', String(n('data-th') + 2 * gy));
}

/** Puts every rectOutside of an SVG its gap outside its target at the size the SVG is shown now. */
export function placeNow(svg: SVGSVGElement) {
  const box = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  if (!box.width || !box.height || !vb || !vb.width || !vb.height) return;
  let sx = box.width / vb.width;
  let sy = box.height / vb.height;
  // The close-up keeps its viewBox's aspect; the overlay is stretched over the picture.
  if (svg.getAttribute('preserveAspectRatio') !== 'none') sx = sy = Math.min(sx, sy);
  for (const rect of svg.querySelectorAll('[data-outside]')) placeRect(rect, sx, sy);
}

/** Keeps every rectOutside of an SVG its gap outside its target whenever the SVG's size changes. */
export function placeOutside(svg: SVGSVGElement) {
  new ResizeObserver(() => placeNow(svg)).observe(svg);
}

/**
 * A click's mark where the outline places its target (a button, a field): a frame around the
 * target, outside it. The point the click lands on is `data-x`, `data-y`.
 */
export function frameAround(
  x: number,
  y: number,
  target: Rect,
  kind: string,
  gap: number = OUTSIDE_PX,
) {
  return s(
    'g',
    {
      class: `marker marker-${kind} marker-framed`,
      'data-x': x,
      'data-y': y,
    },
    rectOutside(target, { class: 'halo', fill: 'none', rx: 3 }, gap),
    rectOutside(target, { class: 'ring', fill: 'none', rx: 3 }, gap),
  );
}

/** An arrow from a point in a direction, for scrolls. */
function arrow(x: number, y: number, r: number, direction: string) {
  const d = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[direction] ?? [0, 1];
  const [dx, dy] = d;
  const len = r * 3;
  const tx = x + dx * len;
  const ty = y + dy * len;
  const head = `M ${tx + dy * r} ${ty - dx * r} L ${tx + dx * r} ${ty + dy * r} L ${tx - dy * r} ${ty + dx * r}`;
  const common = { 'vector-effect': 'non-scaling-stroke', fill: 'none' };
  return s(
    'g',
    { class: 'marker marker-scroll', 'data-x': x, 'data-y': y },
    s('line', { ...common, class: 'halo', x1: x, y1: y, x2: tx, y2: ty }),
    s('path', { ...common, class: 'halo', d: head }),
    s('line', { ...common, class: 'ring', x1: x, y1: y, x2: tx, y2: ty }),
    s('path', { ...common, class: 'ring', d: head }),
  );
}

/**
 * How big the ring is, in the step's coordinate space: about 40 points across on a 1280-wide
 * screen (a toolbar button fits inside), larger on thumbnails so that it can still be seen.
 */
export function markRadius(width: number, height: number, size: 'full' | 'thumb') {
  return Math.max(width, height) * (size === 'thumb' ? 0.03 : 0.016);
}

/**
 * The marks of an action: a frame around the target a click lands on (a ring where the outline
 * places none), an arrow for a scroll (typing's field is outlined by screens.ts).
 * @param target where the outline placed the click's target
 */
export function drawMarks(
  overlay: SVGSVGElement,
  a: Action | null,
  focus: Focus | null | undefined,
  r: number,
  target: Rect | null = null,
) {
  if (!a) return;
  if (
    (a.action === 'click' || a.action === 'double_click') &&
    typeof a.x === 'number' &&
    typeof a.y === 'number'
  ) {
    if (target && contains(target, a.x, a.y)) {
      overlay.append(frameAround(a.x, a.y, target, a.action));
      if (a.action === 'double_click') {
        overlay.append(frameAround(a.x, a.y, target, 'double', OUTSIDE_PX * 2.5));
      }
      return;
    }
    overlay.append(ring(a.x, a.y, r, a.action));
    if (a.action === 'double_click') overlay.append(ring(a.x, a.y, r * 1.35, 'double'));
  } else if (a.action === 'scroll' && typeof a.x === 'number' && typeof a.y === 'number') {
    overlay.append(arrow(a.x, a.y, r, typeof a.direction === 'string' ? a.direction : 'down'));
  }
}
