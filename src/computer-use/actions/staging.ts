/**
 * Commit-point approval (docs/security.md, `approve_at: "commit"`): which edits are staged (sent without
 * a person, recorded), and the change list a held commit carries. Pure: the screen as the step saw
 * it and the run's earlier steps in, the decision out.
 *
 * An edit is staged only when everything about it is known, failing closed otherwise (a person
 * decides, as for any write):
 * - it is typing whose text holds no newline, tab or other control character and is no transaction
 *   code (`/nVA02`), a Backspace, or a click that changes a value (`edit`: a checkbox, an option);
 * - the field it goes into is placed by the host: its outline marks the focus, every focused
 *   element the caller knows of (the host's marks and the field last clicked) is the same text
 *   field, not a password field and not the command field, with a name, in the screen's input
 *   area and `changeable` (docs/security.md). A host that serves no outline, or places no field so, gets
 *   no staging: every edit is held for a person.
 */
import type { Action, OutlineElement, Rect, ScreenContext } from './action.types';
import { controlAt, focusedFields, isCommandField, isTextField } from './label-at';
import { roleKey, type Rules } from './rules';
import { clean } from './text';
import { SAME_LINE_PX } from './typed-field';

/** The field a staged edit went into, as the change list names it. */
export interface StagedField {
  /** Its label: the outline element's name, or what OCR read beside the field. */
  label: string;
  /** The outline element's id; null where the host serves no outline. */
  id: string | null;
  /** Where it was on the screen the edit was judged on (the outline's rect); null: unknown. */
  rect: Rect | null;
  /**
   * Where the run clicked to focus it, in records of runs from before outlines were required for
   * staging (nothing is staged without one now); else null.
   */
  at: { x: number; y: number } | null;
}

/** One staged edit, as its step records it (`steps.staged`). */
export interface StagedEdit {
  field: StagedField;
  /** The field's value before the edit (the outline's `value`); null when nothing read it. */
  before: string | null;
  /** The text typed; null for a Backspace or a click. */
  text: string | null;
  /** The key of an edit by key (Backspace); absent for typing. */
  key?: 'Backspace';
  /** A click that changed a value (a checkbox, an option): what it stores is read back. */
  click?: true;
  /**
   * The outline marks the field's content selected (`selected`): typing replaces it. Absent: the
   * host does not say, so the text may be added at the caret.
   */
  selected?: true;
}

/**
 * How a field's value read back at the commit compares with what was typed: `same`, `differs`,
 * `unread` (nothing could read it back); where the host reports field state (SAP GUI Scripting's
 * Changeable and Modified): `earlier` (typed on an earlier screen of the run, which the
 * application has taken: it is not on the screen the commit is held on), `unexplained` (the
 * application marks the field modified and no staged edit explains it: the commit is held with it).
 */
export type ReadBackCheck = 'same' | 'differs' | 'unread' | 'earlier' | 'unexplained';

/** One line of a held commit's change list (docs/security.md): a field and what the commit stores in it. */
export interface Change {
  field: string;
  before: string | null;
  /** What the run typed last into the field; null when only Backspace edited it. */
  after: string | null;
  /** The field's value on the screen of the held commit; null when nothing could read it. */
  read_back: string | null;
  read_back_check: ReadBackCheck;
  /** The last step that edited the field. */
  step: number;
  /** Where the field is on the held screen (or was, when it is no longer there); null: unknown. */
  rect: Rect | null;
  /**
   * `navigation`: not a change this commit stores. The field was typed on an earlier screen
   * (`read_back_check` `earlier`) and the run left that screen by a key an agent's screen rule makes
   * a read (the order number on VA02's first screen, which Enter only opens). Absent: a change
   * the commit stores, or may store (Warden cannot tell it was navigation: it lists it).
   */
  kind?: 'navigation';
}

/** A step of the run as the change list reads it. */
export interface StagingStep {
  n: number;
  classification: string | null;
  outcome: string | null;
  staged: StagedEdit | null;
  /**
   * An edit held for a person and sent after approval (`approve_at: "every_write"`): the field
   * located as for staging. Like a staged edit, it is stored only by the next commit.
   */
  edit?: StagedEdit | null;
  /** The step's action (a key's name tells the key that left a screen); absent: not known. */
  action?: unknown;
  /**
   * The agent config fields that made the step a read although the default rules make it a write,
   * as the step records them (`{screen_rules: […]}`: a screen rule); absent or null: none.
   */
  loosened_by?: unknown;
}

/** Why an edit was not staged: the write is held for a person, as always. */
export interface NotStaged {
  notStaged: string;
}

/** Control characters: text holding one is never staged (a newline or tab commits or moves). */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** SAP's `/nVA02`, `/oVA02`: typed into the command field wherever the focus seems to be. */
const TRANSACTION_CODE = /^\s*\/[no]/i;
/**
 * Outcomes of an action that reached the screen, a commit among them when it was a write. A commit
 * the application refused (`refused_by_application`, its E message) stored nothing: the edits
 * before it are still pending, and the next commit's approval lists them again.
 */
const COMMITTED: ReadonlySet<string> = new Set(['sent', 'sent_after_approval']);

/**
 * Whether `action` is staged on this screen, and as what. `valueClick`: the rules judged it a click
 * that changes a value (`Verdict.edit`).
 */
export function stageEdit(
  action: Action,
  screen: ScreenContext,
  rules: Rules,
  valueClick = false,
): { edit: StagedEdit } | NotStaged {
  if ((action.action === 'click' || action.action === 'double_click') && valueClick) {
    return stageValueClick(action.x, action.y, screen, rules);
  }
  let text: string | null = null;
  if (action.action === 'type') {
    if (CONTROL.test(action.text)) {
      return notStaged('the text holds a newline, tab or other control character');
    }
    if (TRANSACTION_CODE.test(action.text)) {
      return notStaged('a transaction code (/n…, /o…) goes into the command field, never staged');
    }
    text = action.text;
  } else if (!(action.action === 'key' && action.key === 'Backspace')) {
    return notStaged('only typing and Backspace inside a field are staged');
  }
  if (!Array.isArray(screen.outline)) {
    return notStaged('the screen host serves no outline, so nothing places the field');
  }
  const located = outlineField(screen, rules);
  if ('notStaged' in located) return located;
  const edit: StagedEdit = { field: located.field, before: located.before, text };
  if (text === null) edit.key = 'Backspace';
  if (located.selected) edit.selected = true;
  return { edit };
}

function notStaged(why: string): NotStaged {
  return { notStaged: `${why}: a person decides` };
}

function outlineField(
  screen: ScreenContext,
  rules: Rules,
): { field: StagedField; before: string | null; selected: boolean } | NotStaged {
  const outline = screen.outline as OutlineElement[];
  if (!outline.some((e) => e?.focused === true)) {
    return notStaged('the screen host marks no field as focused, so nothing locates the field');
  }
  const focused = focusedFields(screen);
  const element = focused[0];
  if (focused.some((e) => e !== element && e?.id !== element.id)) {
    return notStaged('the field that has the focus is not certain');
  }
  if (!isTextField(element, rules)) return notStaged('the focus is not in a text field');
  if (element.password === true) return notStaged('the focus is in a password field');
  if (isCommandField(element)) return notStaged('typing into the command field is never staged');
  const label = typeof element.name === 'string' ? clean(element.name, Infinity) : '';
  if (label === '') return notStaged('the focused field has no name');
  if (element.area !== 'input') {
    return notStaged("the screen host does not place the field in the screen's input area");
  }
  if (!Array.isArray(element.states) || !element.states.includes('changeable')) {
    return notStaged('the screen host does not mark the field changeable');
  }
  const before = typeof element.value === 'string' ? element.value : null;
  return {
    field: { label, id: String(element.id), rect: rectOf(element), at: null },
    before,
    selected: element.states.includes('selected'),
  };
}

/**
 * A click on a control that changes a value, staged only where the host places the control in the
 * screen's input area as changeable, names it, and it is no password field or command field.
 */
function stageValueClick(
  x: number,
  y: number,
  screen: ScreenContext,
  rules: Rules,
): { edit: StagedEdit } | NotStaged {
  if (!Array.isArray(screen.outline)) {
    return notStaged('the screen host serves no outline, so nothing places the control');
  }
  const element = controlAt(screen.outline, x, y, rules);
  if (!element) return notStaged('the outline names no control there');
  if (element.password === true || isCommandField(element)) {
    return notStaged('a click there is never staged');
  }
  const label = typeof element.name === 'string' ? clean(element.name, Infinity) : '';
  if (label === '') return notStaged('the control has no name');
  if (element.area !== 'input') {
    return notStaged("the screen host does not place the control in the screen's input area");
  }
  if (!Array.isArray(element.states) || !element.states.includes('changeable')) {
    return notStaged('the screen host does not mark the control changeable');
  }
  return {
    edit: {
      field: { label, id: String(element.id), rect: rectOf(element), at: null },
      before: valueOf(element),
      text: null,
      click: true,
    },
  };
}

/**
 * What a control holds, as a change list says it: its value (a combo box's choice), else whether
 * it is checked (a checkbox, a radio button, a toggle); null when the outline says neither.
 */
export function valueOf(e: OutlineElement): string | null {
  if (typeof e.value === 'string') return e.value;
  if (!Array.isArray(e.states)) return null;
  if (e.states.includes('checked')) return 'checked';
  return /check|radio|toggle|switch/.test(roleKey(e.role)) ? 'not checked' : null;
}

function rectOf(e: OutlineElement): Rect | null {
  const r = e.rect;
  if (!r || ![r.x, r.y, r.width, r.height].every(Number.isFinite)) return null;
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}

/** Whether two staged edits went into the same field: the same outline id, or the same line. */
export function sameStagedField(a: StagedField, b: StagedField): boolean {
  if (a.id !== null || b.id !== null) return a.id === b.id;
  if (!a.at || !b.at) return false;
  return Math.abs(a.at.y - b.at.y) <= SAME_LINE_PX;
}

/**
 * The change list of a commit held at step `history.length + 1`: every staged edit since the
 * run's last commit (a write that reached the screen without being staged), one line per field,
 * in the order the fields were first edited. A second edit of a field keeps its first `before`
 * and replaces its `after` (Backspace takes a character off it); a click elsewhere changes
 * nothing. `outline` is the held screen's: the field's value there is its read-back. Where it
 * reports field state (the application's own word), a staged field not on it was typed on an
 * earlier screen, and a field it marks modified that no staged edit explains is listed too.
 */
export function changeList(
  history: readonly StagingStep[],
  outline: readonly OutlineElement[] | null,
): Change[] {
  const since: StagingStep[] = [];
  for (let i = history.length - 1; i >= 0; i--) {
    const s = history[i];
    if (s.outcome === 'staged' && s.staged) since.unshift(s);
    // An edit a person approved on its own is on the screen, not stored: this commit stores it.
    else if (s.outcome === 'sent_after_approval' && s.edit) since.unshift({ ...s, staged: s.edit });
    else if (COMMITTED.has(s.outcome ?? '') && s.classification === 'write') break;
  }
  const lines: Array<{
    field: StagedField;
    before: string | null;
    after: string | null;
    step: number;
    /** A click changed it: only the read-back says what it holds. */
    click?: boolean;
  }> = [];
  for (const { n, staged } of since) {
    const edit = staged as StagedEdit;
    let line = lines.find((l) => sameStagedField(l.field, edit.field));
    if (!line) {
      line = { field: edit.field, before: edit.before, after: null, step: n };
      lines.push(line);
    }
    line.step = n;
    line.click ||= edit.click === true;
    line.after =
      edit.text !== null
        ? edit.text
        : edit.click || line.after === null
          ? null
          : [...line.after].slice(0, -1).join('');
  }
  const fieldState = reportsFieldState(outline);
  const changes: Change[] = lines.map((l) => {
    const element =
      l.field.id === null ? null : (outline?.find((e) => e?.id === l.field.id) ?? null);
    const readBack = !element
      ? null
      : l.click
        ? valueOf(element)
        : typeof element.value === 'string'
          ? element.value
          : null;
    return {
      field: l.field.label,
      before: l.before,
      after: l.after,
      read_back: readBack,
      read_back_check:
        !element && fieldState && l.field.id !== null
          ? 'earlier'
          : readBackCheck(l.after, readBack),
      step: l.step,
      rect: (element && rectOf(element)) ?? l.field.rect,
    };
  });
  for (const c of changes) {
    if (c.read_back_check === 'earlier' && leftByNavigation(history, c.step)) c.kind = 'navigation';
  }
  if (!fieldState || !outline) return changes;
  const explained = new Set(lines.map((l) => l.field.id));
  for (const e of outline) {
    if (!e?.states?.includes('modified') || explained.has(String(e.id)) || e.password === true)
      continue;
    if (isCommandField(e)) continue;
    const value = typeof e.value === 'string' ? e.value : null;
    changes.push({
      field:
        typeof e.name === 'string' && clean(e.name, Infinity) !== ''
          ? clean(e.name, Infinity)
          : String(e.id),
      before: null,
      after: null,
      read_back: value,
      read_back_check: 'unexplained',
      step: history.length + 1,
      rect: rectOf(e),
    });
  }
  return changes;
}

/** Outcomes of a step that put its action on the screen. */
const PERFORMED: ReadonlySet<string> = new Set(['sent', 'sent_after_approval', 'staged']);

/**
 * Whether the screen on which step `n` typed was left by navigation, as far as Warden can tell:
 * the first action the run performed after it that is no edit in a field is a key sent as a read
 * that an agent's screen rule made one (`loosened_by.screen_rules`: the admin's word that the key
 * only moves on, on that screen). Anything else (a click, a key the default rules made a read such
 * as Page Down on a long form, a write) may leave a form whose fields a Save still stores: not
 * navigation, the line stays a change.
 */
function leftByNavigation(history: readonly StagingStep[], n: number): boolean {
  for (const s of history) {
    if (s.n <= n || !PERFORMED.has(s.outcome ?? '')) continue;
    if (s.staged || s.edit) continue; // another field typed on the same screen
    const action = s.action as { action?: unknown } | null | undefined;
    const by = s.loosened_by as { screen_rules?: unknown } | null | undefined;
    return (
      action?.action === 'key' &&
      s.classification === 'read' &&
      s.outcome === 'sent' &&
      Array.isArray(by?.screen_rules)
    );
  }
  return false;
}

/** Whether the host reports field state (`changeable`, `modified`): the application's own word. */
function reportsFieldState(outline: readonly OutlineElement[] | null): boolean {
  if (!outline) return false;
  return outline.some(
    (e: OutlineElement | null) =>
      e?.states?.includes('changeable') === true || e?.states?.includes('modified') === true,
  );
}

function readBackCheck(after: string | null, readBack: string | null): ReadBackCheck {
  if (readBack === null) return 'unread';
  if (after === null) return 'same'; // only Backspace or a click: the read-back is what it holds
  return readBack.trim() === after.trim() ? 'same' : 'differs';
}
