/**
 * What the run has typed into the field that has focus (docs/rules.md "Never typed": a card number
 * split over consecutive `type` actions into one field is refused like a whole one). Validation
 * reads the field as these texts followed by the new one (`completesCardNumber`). Pure: a function
 * of the run's earlier steps and the screen's outline.
 *
 * Read from the newest step back, the pieces end where the focus last moved to another field:
 * - a performed click or double-click on another field. With an outline, two clicks are on the
 *   same field when the outline's smallest element at both points is the same; where it names no
 *   element at a point (or there is no outline) nothing can tell fields apart, and clicks on the
 *   same line of the screen (at most `SAME_LINE_PX` apart up or down) count as the same field;
 * - a performed key that leaves the field: Tab, Enter, Escape or a function key, with or without
 *   modifiers. Other keys (arrows, Home, End, Backspace, Delete, Ctrl+S …) may leave the caret in
 *   the field and do not end the pieces.
 * Failing closed, anything that did not happen (a refused, rejected or stale step) moves nothing,
 * and typing whose outcome is anything but "not sent" counts as typed. Typing that went into a
 * field nothing locates (after a Tab, or before the run's first click) and was followed by a click
 * is not counted: the click moved the focus, and nothing tells whether it came back.
 */
import { parseKey } from '@warden/protocol';
import type { EarlierStep, OutlineElement } from './action.types';
import { movesFocus } from './focus-reach';
import { labelAt } from './label-at';
import { PERFORMED } from './step-outcomes';

export type { EarlierStep } from './action.types';
export { PERFORMED } from './step-outcomes';

/**
 * How far apart, up or down, two clicks may be and still count as one field when nothing tells:
 * about a field's height, and less than the distance between the middles of two fields one under
 * the other (24–34 px on SAP-like screens).
 */
export const SAME_LINE_PX = 16;

/** The outcomes of a step whose action certainly did not. */
const NOT_SENT: ReadonlySet<string> = new Set(['refused', 'rejected', 'stale', 'screen_changed']);
/** Keys that take the focus out of a field, or the screen away from it. */
const LEAVING = /^(Tab|Enter|Escape|F\d{1,2})$/;

interface Point {
  x: number;
  y: number;
}

type Seen =
  | { kind: 'typed'; text: string }
  | { kind: 'click'; at: Point }
  | { kind: 'leave' }
  | { kind: 'none' };

function seen(step: EarlierStep): Seen {
  const a = step.action as Record<string, unknown> | null;
  if (typeof a !== 'object' || a === null) return { kind: 'none' };
  const outcome = step.outcome ?? '';
  if (a.action === 'type' && typeof a.text === 'string') {
    return NOT_SENT.has(outcome) ? { kind: 'none' } : { kind: 'typed', text: a.text };
  }
  if (!PERFORMED.has(outcome)) return { kind: 'none' };
  if (a.action === 'click' || a.action === 'double_click') {
    const { x, y } = a;
    if (typeof x !== 'number' || typeof y !== 'number') return { kind: 'leave' };
    return { kind: 'click', at: { x, y } };
  }
  if (a.action === 'key' && typeof a.key === 'string') {
    const parsed = parseKey(a.key);
    // A key the protocol cannot read was still performed: it may have moved the focus.
    if ('error' in parsed || LEAVING.test(parsed.base)) return { kind: 'leave' };
  }
  return { kind: 'none' };
}

function sameField(a: Point, b: Point, outline: OutlineElement[] | null): boolean {
  const ea = outline ? labelAt(outline, a.x, a.y) : null;
  const eb = outline ? labelAt(outline, b.x, b.y) : null;
  if (ea && eb) return ea === eb;
  return Math.abs(a.y - b.y) <= SAME_LINE_PX;
}

/**
 * The texts typed into the field that has focus since the focus last moved into it, oldest first;
 * empty when the last thing that happened moved the focus. `history` is the run's earlier steps,
 * oldest first; `outline` the current screen's.
 */
export function typedSinceFocus(
  history: readonly EarlierStep[],
  outline: OutlineElement[] | null,
): string[] {
  const pieces: string[] = [];
  /** Where the newest click put the focus: the pieces taken so far went into that field. */
  let field: Point | null = null;
  /** Pieces newer than every click seen so far, walking back: their field is the next click's. */
  let pending: string[] = [];
  for (let i = history.length - 1; i >= 0; i--) {
    const s = seen(history[i]);
    if (s.kind === 'typed') pending.unshift(s.text);
    else if (s.kind === 'leave') break;
    else if (s.kind === 'click') {
      if (field !== null && !sameField(s.at, field, outline)) break;
      field ??= s.at;
      pieces.unshift(...pending);
      pending = [];
    }
  }
  // With no click since the focus last moved, the pending pieces went into the field that has it
  // now. Behind a click they went wherever the focus was before it (after a Tab, at the start):
  // that click moved the focus, and nothing says it came back.
  return field === null ? pending : pieces;
}

/**
 * The run's last step whose action may have reached the screen: steps that certainly did not (a
 * refused answer, a rejected or stale write, a `screen_changed`) are passed over. Null when there
 * is none. `history` is oldest first.
 */
export function previousAction(history: readonly EarlierStep[]): EarlierStep | null {
  for (let i = history.length - 1; i >= 0; i--) {
    if (!NOT_SENT.has(history[i].outcome ?? '')) return history[i];
  }
  return null;
}

/**
 * Where the run last clicked, if the focus cannot have moved since (no key was performed after it,
 * nor text holding a Tab or a newline, which type Tab and Enter: either may have moved it).
 * `history` is oldest first.
 */
export function lastClickPoint(history: readonly EarlierStep[]): { x: number; y: number } | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const action = history[i].action as {
      action?: string;
      x?: number;
      y?: number;
      text?: unknown;
    } | null;
    if (!PERFORMED.has(history[i].outcome ?? '')) continue;
    if (action?.action === 'click' || action?.action === 'double_click') {
      return { x: action.x ?? -1, y: action.y ?? -1 };
    }
    if (action?.action === 'type' && (typeof action.text !== 'string' || movesFocus(action.text))) {
      return null;
    }
    // A staged Backspace stays in its field; any other key may have moved the focus.
    if (action?.action === 'key' && history[i].outcome !== 'staged') return null;
  }
  return null;
}
