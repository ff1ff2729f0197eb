// @ts-check
/**
 * An action's marks on a screenshot, as SVG in the step's own coordinate space (see screens.js): a
 * ring where a click lands, an arrow for a scroll; the label of typing; and the marks in words,
 * for the caption and for screen readers.
 */
import { s } from './dom.js';
import { actionInWords, characters, marked } from './words.js';

/** @typedef {import('./api.js').Action} Action */
/** @typedef {import('./screens.js').Focus} Focus */

/**
 * The label of typing on a screenshot: the text with its marks when it fits, else only how long
 * it is. A shortened text is never shown: its start could read as a whole (the full text is in
 * the action's title).
 * @param {string} text
 * @param {number} room characters that fit
 */
export function typeBadge(text, room) {
  const shownText = marked(text);
  if ([...shownText].length <= room) return `Type “${shownText}”`;
  return `Type ${characters(text)} characters`;
}

/**
 * What the marks show, for the caption and for screen readers.
 * @param {Action | null} action
 * @param {string | null} why
 * @param {number} width
 * @param {number} height
 * @param {Focus | null} focus
 */
export function marksInWords(action, why, width, height, focus) {
  if (!action) return 'No action on this screen.';
  const space = `on the ${width} × ${height} screen the planner saw`;
  switch (action.action) {
    case 'click':
    case 'double_click':
      return `The red ring marks where the ${action.action === 'click' ? 'click' : 'double-click'} lands: x ${String(action.x)}, y ${String(action.y)} ${space}.`;
    case 'type': {
      // The text itself is in the action's title, in full with its marks; not repeated here.
      const n = characters(typeof action.text === 'string' ? action.text : '');
      const text = `the ${n}-character text`;
      if (!focus) {
        return `Types ${text} into the field that has focus; the run's earlier steps do not show which (no click since its last key).`;
      }
      const label = focus.label ? ` “${focus.label}”` : '';
      return `Types ${text} into the field${label} clicked in step ${focus.step} (dot at x ${focus.x}, y ${focus.y}; the field found around it is outlined in dashes).`;
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
 * A ring around a point with ticks outside it, in the step's coordinate space. The ring is wider
 * than a button and nothing but a small dot is drawn inside, so the target stays readable.
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {string} kind
 */
export function ring(x, y, r, kind) {
  const common = { 'vector-effect': 'non-scaling-stroke', fill: 'none' };
  const inner = r * 1.15;
  const outer = r * 1.9;
  /** @type {Array<[number, number, number, number]>} */
  const ticks = [
    [x - outer, y, x - inner, y],
    [x + inner, y, x + outer, y],
    [x, y - outer, x, y - inner],
    [x, y + inner, x, y + outer],
  ];
  /** @param {string} cls */
  const lines = (cls) =>
    ticks.map(([x1, y1, x2, y2]) => s('line', { ...common, class: cls, x1, y1, x2, y2 }));
  return s(
    'g',
    { class: `marker marker-${kind}`, 'data-x': x, 'data-y': y },
    s('circle', { ...common, class: 'halo', cx: x, cy: y, r }),
    ...lines('halo'),
    s('circle', { ...common, class: 'ring', cx: x, cy: y, r }),
    ...lines('ring'),
    s('circle', { class: 'marker-centre', cx: x, cy: y, r: Math.max(1, r / 12) }),
  );
}

/**
 * An arrow from a point in a direction, for scrolls.
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {string} direction
 */
function arrow(x, y, r, direction) {
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
    s('circle', { class: 'marker-centre', cx: x, cy: y, r: Math.max(1, r / 6) }),
  );
}

/**
 * How big the ring is, in the step's coordinate space: about 40 points across on a 1280-wide
 * screen (a toolbar button fits inside), larger on thumbnails so that it can still be seen.
 * @param {number} width
 * @param {number} height
 * @param {'full' | 'thumb'} size
 */
export function markRadius(width, height, size) {
  return Math.max(width, height) * (size === 'thumb' ? 0.03 : 0.016);
}

/**
 * The marks of an action: a ring where a click lands, an arrow for a scroll, a small ring at the
 * field typing goes into (its outline is added once the pixels are known).
 * @param {SVGSVGElement} overlay
 * @param {Action | null} a
 * @param {Focus | null | undefined} focus
 * @param {number} r
 */
export function drawMarks(overlay, a, focus, r) {
  if (!a) return;
  if (
    (a.action === 'click' || a.action === 'double_click') &&
    typeof a.x === 'number' &&
    typeof a.y === 'number'
  ) {
    overlay.append(ring(a.x, a.y, r, a.action));
    if (a.action === 'double_click') overlay.append(ring(a.x, a.y, r * 1.35, 'double'));
  } else if (a.action === 'scroll' && typeof a.x === 'number' && typeof a.y === 'number') {
    overlay.append(arrow(a.x, a.y, r, typeof a.direction === 'string' ? a.direction : 'down'));
  }
}
