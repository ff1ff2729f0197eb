/**
 * Classification (docs/rules.md): is a valid action a read or a write? Warden's own rules, never the
 * model's word. Every answer carries `why`, one sentence an approver reads.
 *
 * | action               | kind                                                        |
 * | -------------------- | ----------------------------------------------------------- |
 * | type                 | write                                                       |
 * | key                  | write if a commit key, read if a navigation key             |
 * | click, double_click  | on a text field of the outline: read (it focuses it);       |
 * |                      | on a control that changes a value (checkbox …): write, edit;|
 * |                      | write if a label (name, description, OCR, target) names a   |
 * |                      | committing verb or a commit key;                            |
 * |                      | on a tab, menu, scroll bar: read;                           |
 * |                      | on a command control (button …): write unless its labels    |
 * |                      | name only navigation words;                                 |
 * |                      | under a redaction (`redact_regions`): write;                |
 * |                      | else read if the screen gave a label;                       |
 * |                      | nothing could read a label: write (`unlabelled_clicks`)     |
 * | scroll, wait         | read                                                        |
 * | done, fail           | read (nothing is sent)                                      |
 *
 * An agent's screen rules may then say otherwise (screen-rules.ts, applied by check-action.ts).
 */
import type { Action, ClickAction, Classification, Labels } from './action.types';
import { findCommitWord, words } from './commit-words';
import { keyKind, normaliseKey } from './keys';
import { judgeOcrReading } from './ocr-label';
import { roleKey, type Rules } from './rules';
import { clean, quote } from './text';

/** Where a label came from, as the `why` names it, in the order docs/rules.md gives. */
export const LABEL_SOURCES = [
  ['outline', 'from the screen outline'],
  ['ocr', 'read from the screen by OCR'],
  ['target', "the planner's target"],
] as const;

function present(label: string | null | undefined): label is string {
  return typeof label === 'string' && clean(label, Infinity) !== '';
}

/** Two labels that say the same words (folded, as the committing verbs are matched). */
function sameWords(a: string, b: string): boolean {
  return words(a).join(' ') === words(b).join(' ');
}

/**
 * A click on a text field of the outline focuses it (a double-click selects a word in it): a
 * read, whatever the field's name ("Order" is a field, not the verb). The planner's target can
 * still make it a write, unless it is only the field's own name.
 */
function classifyTextFieldClick(
  action: ClickAction,
  name: string,
  targets: Array<string | null | undefined>,
  rules: Rules,
): Classification {
  const verb = action.action === 'double_click' ? 'double-click' : 'click';
  for (const target of targets) {
    if (!present(target) || findCommitWord(target, rules.commitIndex) === null) continue;
    if (present(name) && sameWords(target, name)) continue;
    return { kind: 'write', why: `${verb} on ${quote(target)} (${LABEL_SOURCES[2][1]})` };
  }
  const field = present(name)
    ? `${verb} on ${quote(name)} (a text field in the screen outline)`
    : `${verb} at (${action.x}, ${action.y}) on an unnamed text field of the screen outline`;
  const does =
    action.action === 'double_click' ? 'selecting a word in a field' : 'focusing a field';
  return { kind: 'read', why: `${field}: ${does} is a read` };
}

/** What a click on an outline element of a known kind does (docs/rules.md, "Controls by kind"). */
export type ControlKind = 'command' | 'value' | 'navigation';

/** The element's kind by its role (`control_roles`), or null: a role the rules do not place. */
export function controlKind(role: unknown, rules: Rules): ControlKind | null {
  const key = roleKey(role);
  if (rules.commandRoles.has(key)) return 'command';
  if (rules.valueRoles.has(key)) return 'value';
  if (rules.navigationRoles.has(key)) return 'navigation';
  return null;
}

/** A committing verb a label names, and how the why says it (a commit key's name says which key). */
function verbIn(label: string | null | undefined, rules: Rules): string | null {
  if (!present(label)) return null;
  const found = findCommitWord(label, rules.commitIndex);
  if (found === null) return null;
  const key = rules.commitKeyNames.get(found);
  return key === undefined
    ? ''
    : `, which names the commit key ${key}: a control does what its key does`;
}

function classifyClick(action: ClickAction, labels: Labels, rules: Rules): Classification {
  const verb = action.action === 'double_click' ? 'double-click' : 'click';
  const [outlineWords, ocrWords, targetWords] = LABEL_SOURCES.map(([, said]) => said);
  const targets = [labels.target, action.target];
  if (typeof labels.textField === 'string') {
    return classifyTextFieldClick(action, labels.textField, targets, rules);
  }
  const control = labels.control ?? null;
  const role = clean(String(labels.role ?? ''), 40);
  const shown = present(labels.outline) ? quote(labels.outline) : `an unnamed ${role}`;
  const the = present(labels.outline)
    ? `${shown} (a ${role} in the screen outline)`
    : `${shown} in the screen outline`;
  if (control === 'value') {
    return {
      kind: 'write',
      why: `${verb} on ${the}: it changes a value, an edit`,
      edit: true,
    };
  }
  const ocr = judgeOcrReading(labels.ocr, rules);

  // Any source naming a committing verb (or a commit key) makes the click a write; the first such
  // source is named.
  const byName = verbIn(labels.outline, rules);
  if (byName !== null) {
    return {
      kind: 'write',
      why: `${verb} on ${quote(labels.outline as string)} (${outlineWords}${byName})`,
    };
  }
  const byDescription = verbIn(labels.description, rules);
  if (byDescription !== null) {
    return {
      kind: 'write',
      why: `${verb} on ${shown} described ${quote(labels.description as string)} (${outlineWords}${byDescription})`,
    };
  }
  if (ocr.text !== null && ocr.verb !== null) {
    // Looked for in every word OCR read, however unsure, and within one edit (near-miss.ts).
    const taken = ocr.verb.near === undefined ? '' : `, taken as ${quote(ocr.verb.spelling, 40)}`;
    const key = rules.commitKeyNames.get(ocr.verb.spelling);
    const names = key === undefined ? '' : `, which names the commit key ${key}`;
    return { kind: 'write', why: `${verb} on ${quote(ocr.text)} (${ocrWords}${taken}${names})` };
  }
  // The target can only make a click stricter, so the action's own target is never ignored.
  for (const target of targets) {
    const byTarget = verbIn(target, rules);
    if (byTarget !== null) {
      return {
        kind: 'write',
        why: `${verb} on ${quote(target as string)} (${targetWords}${byTarget})`,
      };
    }
  }

  if (control === 'navigation') {
    return { kind: 'read', why: `${verb} on ${the}: opening or moving to it is a read` };
  }
  // A region may hide all of a label or part of it ("Back" of "Back and Save"): what was read
  // there, or that nothing was, says nothing (unlabelled_clicks included).
  if (labels.redacted === true) {
    return {
      kind: 'write',
      why: `${verb} at (${action.x}, ${action.y}): it lands under this agent's redact_regions, where Warden reads no label, so it is a write`,
    };
  }
  if (control === 'command') return classifyCommandClick(action, verb, the, labels, ocr, rules);

  // A read needs a label from the screen itself; the model's target alone cannot make one.
  if (present(labels.outline)) {
    return {
      kind: 'read',
      why: `${verb} on ${quote(labels.outline)} (${outlineWords}): no committing verb`,
    };
  }
  if (present(labels.description)) {
    return {
      kind: 'read',
      why: `${verb} on ${shown} described ${quote(labels.description)} (${outlineWords}): no committing verb`,
    };
  }
  if (ocr.text !== null && ocr.unreadable === null) {
    return { kind: 'read', why: `${verb} on ${quote(ocr.text)} (${ocrWords}): no committing verb` };
  }
  return unlabelled(action, verb, ocr.unreadable, labels, rules);
}

/**
 * A command control (a button, a toolbar button, a menu item, a link) acts: a write, unless every
 * label the screen gives it names only navigation words (`Back`, `Cancel (F12)`).
 */
function classifyCommandClick(
  action: ClickAction,
  verb: string,
  element: string,
  labels: Labels,
  ocr: ReturnType<typeof judgeOcrReading>,
  rules: Rules,
): Classification {
  let the = element;
  const said = [labels.outline, labels.description].filter(present);
  if (said.length === 0 && ocr.text !== null && ocr.unreadable === null) {
    said.push(ocr.text);
    the = `${the}, ${quote(ocr.text)} (read from the screen by OCR)`;
  }
  // An icon button nothing names: what unlabelled_clicks says of any unlabelled click.
  if (said.length === 0) return unlabelled(action, verb, ocr.unreadable, labels, rules);
  const navigation = said.map((label) => navigationIn(label, rules));
  if (navigation.every((n) => n !== null)) {
    const why = `${verb} on ${the}: its labels name only navigation`;
    // A word only the agent added made it a read: the send checks that word is still there.
    return navigation.some((n) => n.agent)
      ? {
          kind: 'read',
          why: `${why} (this agent's navigation_words)`,
          loosenedBy: { navigationWords: true },
        }
      : { kind: 'read', why };
  }
  const described = present(labels.description) ? ` described ${quote(labels.description)}` : '';
  return {
    kind: 'write',
    why: `${verb} on ${the}${described}: a command control is a write unless its labels name only navigation (Back, Cancel …)`,
  };
}

/** Nothing could read its label: an icon, a blank spot, or OCR that failed or was unsure. */
function unlabelled(
  action: ClickAction,
  verb: string,
  unreadable: string | null,
  labels: Labels,
  rules: Rules,
): Classification {
  const drawn =
    labels.noElement === true
      ? '; the screen outline has no element there (the application draws it without one)'
      : '';
  const nothing = `${verb} at (${action.x}, ${action.y}): nothing could read its label (${unreadable})${drawn}`;
  if (rules.unlabelledClicks === 'read' && labels.outlineServed === true) {
    return {
      kind: 'read',
      why: `${nothing}; this agent sends such clicks (unlabelled_clicks: "read")`,
      loosenedBy: { unlabelledClicks: 'read' },
    };
  }
  if (rules.unlabelledClicks === 'read') {
    return {
      kind: 'write',
      why: `${nothing}, so it is a write: unlabelled_clicks "read" applies only where the screen host serves an outline`,
    };
  }
  return { kind: 'write', why: `${nothing}, so it is a write` };
}

/** Keys a control's label may name as its shortcut, beside its words: never a read on their own. */
const FUNCTION_KEY = /^f(?:[1-9]|1[0-9]|2[0-4])$/;

/**
 * Whether a label names only navigation: its words are navigation words (`navigation_words`), and
 * what else it holds is a shortcut (`F3`, `Shift+F3`, `Esc`) that is no commit key. `Back (F3)`
 * and `Cancel` do; `Print (Ctrl+P)`, `F3` alone and `Go back and save` do not. Null when it does
 * not; else whether one of its words is only in the agent's own list.
 */
export function navigationIn(label: string, rules: Rules): { agent: boolean } | null {
  const ws = words(label);
  let navigation = false;
  let agent = false;
  for (let i = 0; i < ws.length;) {
    const phrase = phraseAt(ws, i, rules.navigationIndex);
    if (phrase.length > 0) {
      navigation = true;
      agent ||= rules.agentNavigationWords.has(phrase.join(' '));
      i += phrase.length;
      continue;
    }
    const shortcut = shortcutAt(ws, i, rules);
    if (shortcut === 0) return null;
    i += shortcut;
  }
  return navigation ? { agent } : null;
}

/** The longest navigation phrase starting at word `i` (its folded words), or none. */
function phraseAt(
  ws: readonly string[],
  i: number,
  index: Rules['navigationIndex'],
): readonly string[] {
  let longest: readonly string[] = [];
  for (const [, phrase] of index.byFirst.get(ws[i]) ?? []) {
    if (phrase.length > longest.length && phrase.every((w, j) => ws[i + j] === w)) longest = phrase;
  }
  return longest;
}

/** How many words at `i` spell a shortcut that is not a commit key (a chord, a function key, a navigation key). */
function shortcutAt(ws: readonly string[], i: number, rules: Rules): number {
  for (let n = Math.min(4, ws.length - i); n >= 1; n--) {
    const key = normaliseKey(ws.slice(i, i + n).join('+'), rules);
    if (key === null || rules.commitKeys.has(key)) continue;
    const base = key.split('+').pop() as string;
    if (n > 1 || FUNCTION_KEY.test(base.toLowerCase()) || rules.navigationKeys.has(key)) return n;
  }
  return 0;
}

/**
 * Read or write, and why. `labels` are the label sources for a click, in the order docs/rules.md gives (and
 * whether the outline marks the element there as a text field): the screen outline at the point, what OCR read around the point (judged by ocr-label.ts), the
 * planner's target (the action's own `target` counts too). Pure; expects an action `validate` accepted,
 * and is strict with anything else (a key outside the lists is a write).
 */
export function classify(action: Action, labels: Labels, rules: Rules): Classification {
  if (typeof action !== 'object' || action === null) return UNKNOWN;
  switch (action.action) {
    case 'type':
      return { kind: 'write', why: 'typing into a field is a write' };
    case 'key': {
      const key = normaliseKey(action.key, rules);
      const kind = key === null ? null : keyKind(key, rules);
      if (kind === 'commit') return { kind: 'write', why: `key ${key} commits` };
      if (kind === 'navigation') return { kind: 'read', why: `key ${key} navigates` };
      return {
        kind: 'write',
        why: `key ${quote(key ?? String(action.key), 40)} is not a navigation key`,
      };
    }
    case 'click':
    case 'double_click':
      return classifyClick(action, labels ?? {}, rules);
    case 'scroll':
      return { kind: 'read', why: 'scrolling is a read' };
    case 'wait':
      return { kind: 'read', why: 'waiting is a read' };
    case 'done':
      return { kind: 'read', why: 'done ends the run; nothing is sent' };
    case 'fail':
      return { kind: 'read', why: 'fail ends the run; nothing is sent' };
  }
  return UNKNOWN;
}

/** Unreachable for a typed action; a stray object is held rather than let through. */
const UNKNOWN: Classification = { kind: 'write', why: 'an action Warden does not know is a write' };
