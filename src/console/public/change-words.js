// @ts-check
/**
 * What a held write changes, in words: the change list's heading and lines, and the decision in
 * one sentence. Pure functions of their inputs.
 */
import { actionInWords, clickLabel, marked, shown } from './words.js';

/** @typedef {import('./api.js').Action} Action */
/** @typedef {import('./api.js').Change} Change */

/** @param {unknown} value */
const str = (value) => (typeof value === 'string' ? value : '');

/**
 * The heading of a held commit's change list (commit-point approval): `This Save stores 2
 * changes`, `This Enter stores 1 change`; a held typing that commits staged changes says so.
 * @param {Action} action
 * @param {string | null} why
 * @param {number} n
 */
export function changesHeading(action, why, n) {
  const changes = `${n} ${n === 1 ? 'change' : 'changes'}`;
  const label =
    action.action === 'click' || action.action === 'double_click' ? clickLabel(action, why) : '';
  if (label) return `This ${shown(label, 40)} stores ${changes}`;
  if (action.action === 'key') return `This ${str(action.key)} stores ${changes}`;
  return `This write commits ${n} staged ${n === 1 ? 'change' : 'changes'}`;
}

/**
 * The decision in one sentence, in the system's words: `SAP GUI (sim) · Click “Save” stores Req.
 * Deliv. Date “15.03.2026” → “30.04.2026”`. The point on the screen is left to the page's details;
 * a field typed on an earlier screen (an order number that opened the order) is not a stored
 * change: it is said as what it opened with.
 * @param {{system: string | null | undefined, action: Action, why: string | null,
 *   changes?: Change[] | null}} o
 * @returns {string}
 */
export function decisionSentence(o) {
  const what = actionInWords(o.action, o.why).replace(/ at -?\d+, -?\d+$/, '');
  const system = o.system ? `${o.system} · ` : '';
  const changes = o.changes ?? [];
  const value = (/** @type {string | null} */ v) =>
    v === null ? '(not read)' : `“${shown(v, 40)}”`;
  const stored = changes
    .filter((c) => c.read_back_check !== 'earlier')
    .map((c) => `${c.field} ${value(c.before)} → ${value(c.read_back ?? c.after)}`);
  const opened = changes
    .filter((c) => c.read_back_check === 'earlier')
    .map((c) => `${c.field} ${value(c.after)}`);
  const stores = stored.length > 0 ? ` stores ${stored.join('; ')}` : '';
  const within = opened.length > 0 ? ` (opened with ${opened.join(', ')})` : '';
  return `${system}${what}${stores}${within}`;
}

/**
 * A line of a change list in words, as the API's audit and protocol say it
 * (`Req. Deliv. Date: “15.03.2026” → “30.04.2026”`, ` (typed “300426”)` when the field reads back
 * otherwise, ` (not read back)`), but with every value in full and its invisible characters marked.
 * @param {Change} change
 */
export function changeInWords(change) {
  /** @param {string | null} v */
  const value = (v) => (v === null ? '(not read)' : `“${marked(v)}”`);
  /** @type {Record<string, string>} */
  const flags = {
    differs: ` (typed ${value(change.after)})`,
    unread: ' (not read back)',
    earlier: ' (typed on an earlier screen)',
    unexplained: ' (changed without a typed edit)',
  };
  const after =
    change.read_back_check === 'earlier' ? change.after : (change.read_back ?? change.after);
  return `${change.field}: ${value(change.before)} → ${value(after)}${flags[change.read_back_check] ?? ''}`;
}
