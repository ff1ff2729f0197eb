/**
 * The whole question for one step, in one call: may the planner's answer be sent to this screen,
 * and is it a read or a write? parse → validate → labels → classify.
 */
import type { Action, ScreenContext } from './action.types';
import { maskCardNumbers } from './card-number';
import { classify } from './classify';
import { outlineLabelAt } from './label-at';
import { parseAction } from './parse-action';
import { loadRules, type Rules } from './rules';
import { validate } from './validate';

export interface Verdict {
  /** As a step records it (DESIGN §9). */
  classification: 'read' | 'write' | 'invalid';
  /** The normalised action to send or hold; null when invalid. */
  action: Action | null;
  /** Why it is a read or a write, or why it was refused. */
  why: string;
  /**
   * A refused `type` action as it may be recorded: card digits masked, also those that complete a
   * number split over earlier actions (which the answer's own masking cannot see). Absent otherwise.
   */
  recorded?: Action;
}

/**
 * True when a click lands where the outline names nothing, so the caller should read the pixels
 * (OCR) before classifying. Only clicks have labels.
 */
export function needsOcr(
  action: Action,
  screen: ScreenContext,
  rules: Rules = loadRules(),
): boolean {
  if (action.action !== 'click' && action.action !== 'double_click') return false;
  return outlineLabelAt(screen.outline, action.x, action.y, rules) === null;
}

/**
 * parse → validate → classify. `ocr` is the text the caller read around the click's point
 * (when `needsOcr` said so); the outline label is looked up here from `screen.outline`.
 */
export function checkAction(
  answer: unknown,
  screen: ScreenContext,
  rules: Rules,
  ocr?: string | null,
): Verdict {
  const parsed = parseAction(answer);
  if (!parsed.ok) return { classification: 'invalid', action: null, why: parsed.reason };
  const valid = validate(parsed.action, screen, rules);
  if (!valid.ok) {
    const refused: Verdict = { classification: 'invalid', action: null, why: valid.reason };
    const a = parsed.action;
    if (a.action === 'type') {
      const before = Array.isArray(screen.typed) ? screen.typed : [];
      refused.recorded = { action: 'type', text: maskCardNumbers(a.text, before) };
    }
    return refused;
  }
  const action = valid.action;
  const outline =
    action.action === 'click' || action.action === 'double_click'
      ? outlineLabelAt(screen.outline, action.x, action.y, rules)
      : null;
  const { kind, why } = classify(action, { outline, ocr }, rules);
  return { classification: kind, action, why };
}
