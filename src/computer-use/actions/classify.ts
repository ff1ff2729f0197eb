/**
 * Classification (DESIGN §5): is a valid action a read or a write? Warden's own rules, never the
 * model's word. Every answer carries `why`, one sentence an approver reads.
 *
 * | action               | kind                                                        |
 * | -------------------- | ----------------------------------------------------------- |
 * | type                 | write                                                       |
 * | key                  | write if a commit key, read if a navigation key             |
 * | click, double_click  | on a text field of the outline: read (it focuses it);       |
 * |                      | write if a label contains a committing verb, else read;     |
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
import type { Rules } from './rules';
import { clean, quote } from './text';

/** Where a label came from, as the `why` names it, in DESIGN order. */
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

function classifyClick(action: ClickAction, labels: Labels, rules: Rules): Classification {
  const verb = action.action === 'double_click' ? 'double-click' : 'click';
  const [outlineWords, ocrWords, targetWords] = LABEL_SOURCES.map(([, said]) => said);
  const targets = [labels.target, action.target];
  if (typeof labels.textField === 'string') {
    return classifyTextFieldClick(action, labels.textField, targets, rules);
  }
  const ocr = judgeOcrReading(labels.ocr, rules);

  // Any source naming a committing verb makes the click a write; the first such source is named.
  if (present(labels.outline) && findCommitWord(labels.outline, rules.commitIndex) !== null) {
    return { kind: 'write', why: `${verb} on ${quote(labels.outline)} (${outlineWords})` };
  }
  if (ocr.text !== null && ocr.verb !== null) {
    // Looked for in every word OCR read, however unsure, and within one edit (near-miss.ts).
    const taken = ocr.verb.near === undefined ? '' : `, taken as ${quote(ocr.verb.spelling, 40)}`;
    return { kind: 'write', why: `${verb} on ${quote(ocr.text)} (${ocrWords}${taken})` };
  }
  // The target can only make a click stricter, so the action's own target is never ignored.
  for (const target of targets) {
    if (present(target) && findCommitWord(target, rules.commitIndex) !== null) {
      return { kind: 'write', why: `${verb} on ${quote(target)} (${targetWords})` };
    }
  }

  // A read needs a label from the screen itself; the model's target alone cannot make one.
  if (present(labels.outline)) {
    return {
      kind: 'read',
      why: `${verb} on ${quote(labels.outline)} (${outlineWords}): no committing verb`,
    };
  }
  if (ocr.text !== null && ocr.unreadable === null) {
    return { kind: 'read', why: `${verb} on ${quote(ocr.text)} (${ocrWords}): no committing verb` };
  }

  // Nothing could read its label: an icon, a blank spot, or OCR that failed or was unsure.
  const nothing = `${verb} at (${action.x}, ${action.y}): nothing could read its label (${ocr.unreadable})`;
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

/**
 * Read or write, and why. `labels` are the label sources for a click, in DESIGN order (and
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
