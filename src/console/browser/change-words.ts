/**
 * What a held write changes, in words: the change list's heading and lines, and the decision in
 * one sentence. Pure functions of their inputs.
 */
import { actionInWords, clickLabel, marked, shown } from './words';
import type { Action, Change, StagedEdit } from './api-types';

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * What a held typing does to its field, as far as the screen host said: it replaces the field's
 * content (the outline marks it selected), goes into an empty field, is added to what is there
 * (nothing says it is selected: the text goes in at the cursor), or nothing read the field.
 */
export function editMode(edit: StagedEdit): 'replaces' | 'empty' | 'adds' | 'unread' {
  if (edit.before === null) return 'unread';
  if (edit.before === '') return 'empty';
  return edit.selected ? 'replaces' : 'adds';
}

/**
 * A held typing's before → after in one line: `Req. Deliv. Date “15.03.2026” → “30.04.2026”`;
 * `Order (empty) → “4711”`; where the text is added, `Notes “Call first”, “ today” added at the
 * cursor`; where nothing read the field, says so.
 */
export function editInWords(edit: StagedEdit) {
  const text = `“${shown(edit.text ?? '', 40)}”`;
  const field = edit.field.label;
  switch (editMode(edit)) {
    case 'replaces':
      if (edit.before === edit.text) return `${field} ${text} (unchanged: the same text again)`;
      return `${field} “${shown(edit.before ?? '', 40)}” → ${text}`;
    case 'empty':
      return `${field} (empty) → ${text}`;
    case 'adds':
      return `${field} “${shown(edit.before ?? '', 40)}”, ${text} added at the cursor`;
    default:
      return `${field} (its value not read): ${text} replaces or is added to it`;
  }
}

/**
 * The heading of a held commit's change list (commit-point approval): `This Save stores 2
 * changes`, `This Enter stores 1 change`; a held typing that commits (a newline in it), `This
 * write stores 1 change`. `n` counts every line but navigation, as the table lists them (a field
 * changed without a typed edit among them: the commit stores it too).
 */
export function changesHeading(action: Action, why: string | null, n: number, unchanged = 0) {
  const none = unchanged > 0 ? 'no change: the values are as they were' : 'no typed change';
  const changes = n === 0 ? none : `${n} ${n === 1 ? 'change' : 'changes'}`;
  const label =
    action.action === 'click' || action.action === 'double_click' ? clickLabel(action, why) : '';
  if (label) return `This ${shown(label, 40)} stores ${changes}`;
  if (action.action === 'key') return `This ${str(action.key)} stores ${changes}`;
  return `This write stores ${changes}`;
}

/**
 * Whether a line of a change list is navigation, not a change the commit stores: the server says
 * so (`kind`), only where it can tell (a field typed on an earlier screen that a screen rule's
 * read left). Every other line, `earlier` ones included, is a change.
 */
export const isNavigation = (c: Change) => c.kind === 'navigation';

/**
 * The value a change list shows as After: read back from the held screen, or, for a field typed
 * on an earlier screen (or not read back), what was typed.
 */
export const afterOf = (c: Change) =>
  c.read_back_check === 'earlier' ? c.after : (c.read_back ?? c.after);

/**
 * Whether a change leaves its field as it was: the value before is the one After shows (the
 * same date typed over itself). Such a line stores nothing, and the page says so.
 */
export const isUnchanged = (c: Change) =>
  !isNavigation(c) && c.before !== null && c.before === afterOf(c);

/**
 * A navigation line as the approver reads it, grey: `opened order 4711`. The label's capitalised
 * words are lower-cased (`Sales Document` → `sales document`), abbreviations kept (`PO`).
 */
export function openedInWords(c: Change) {
  const field = c.field.replace(/\b\p{Lu}\p{Ll}+\b/gu, (w) => w.toLowerCase());
  return `opened ${field} ${shown(c.after ?? '', 40)}`;
}

/**
 * The decision in one sentence, in the system's words: `SAP GUI (sim) · Click “Save” stores Req.
 * Deliv. Date “15.03.2026” → “30.04.2026”`. The point on the screen is left to the page's details;
 * a field the server says is navigation (an order number typed on the first screen, which a
 * screen rule's Enter left) is not a stored change: it is said as what it opened with.
 * A held typing says the field it goes into and its before → after (`Type “30.04.2026” into Req.
 * Deliv. Date “15.03.2026” → “30.04.2026”`).
 */
export function decisionSentence(o: {
  system: string | null | undefined;
  action: Action;
  why: string | null;
  changes?: Change[] | null;
  edit?: StagedEdit | null;
}): string {
  const what = actionInWords(o.action, o.why, { where: false });
  const system = o.system ? `${o.system} · ` : '';
  if (o.action.action === 'type' && o.edit) return `${system}Type into ${editInWords(o.edit)}`;
  const changes = o.changes ?? [];
  const value = (v: string | null) => (v === null ? '(not read)' : `“${shown(v, 40)}”`);
  // A field typed on an earlier screen that Warden cannot tell was navigation is a change.
  const stored = changes
    .filter((c) => !isNavigation(c))
    .map((c) =>
      isUnchanged(c)
        ? `${c.field} ${value(c.before)} (unchanged)`
        : `${c.field} ${value(c.before)} → ${value(c.read_back ?? c.after)}`,
    );
  const opened = changes.filter(isNavigation).map((c) => `${c.field} ${value(c.after)}`);
  const stores = stored.length > 0 ? ` stores ${stored.join('; ')}` : '';
  const within = opened.length > 0 ? ` (opened with ${opened.join(', ')})` : '';
  return `${system}${what}${stores}${within}`;
}

/**
 * A line of a change list in words, as the API's audit and protocol say it
 * (`Req. Deliv. Date: “15.03.2026” → “30.04.2026”`, ` (typed “300426”)` when the field reads back
 * otherwise, ` (not read back)`), but with every value in full and its invisible characters marked.
 */
export function changeInWords(change: Change) {
  const value = (v: string | null) => (v === null ? '(not read)' : `“${marked(v)}”`);
  const flags: Record<string, string> = {
    differs: ` (typed ${value(change.after)})`,
    unread: ' (not read back)',
    earlier: ' (typed on an earlier screen)',
    unexplained: ' (changed without a typed edit)',
  };
  if (isNavigation(change)) {
    return `${change.field}: opened with ${value(change.after)} (navigation, not a stored change)`;
  }
  const after =
    change.read_back_check === 'earlier' ? change.after : (change.read_back ?? change.after);
  return `${change.field}: ${value(change.before)} → ${value(after)}${flags[change.read_back_check] ?? ''}`;
}

/**
 * A held commit's why beside its change list: the list says what the commit stores, so the why
 * does not count it again (`; it commits 1 staged change`).
 */
export function whyBesideChanges(why: string, changes: Change[] | null | undefined): string {
  if (!changes?.length) return why;
  return why.replace(/; it commits \d+ staged changes?/, '');
}
