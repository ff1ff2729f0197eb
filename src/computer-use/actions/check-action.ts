/**
 * The whole question for one step, in one call: may the planner's answer be sent to this screen,
 * and is it a read or a write? parse → validate → labels → classify.
 */
import type { Action, OcrReading, ScreenContext } from './action.types';
import { maskCardNumbers } from './card-number';
import { classify } from './classify';
import { focusedFields, outlineLabelAt } from './label-at';
import { parseAction } from './parse-action';
import { loadRules, type Rules } from './rules';
import { clean } from './text';
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
 * True when typing goes into a field the outline gives no name (no outline, or an unnamed
 * field), so the caller should read the label beside the field (OCR) before checking: the
 * password rule needs it (DESIGN §5, "Never typed"). Where to read: `focusedFieldPoint`, else
 * where the run last clicked.
 */
export function needsFieldOcr(action: Action, screen: ScreenContext): boolean {
  if (action.action !== 'type') return false;
  return !focusedFields(screen).some((e) => typeof e.name === 'string' && clean(e.name, Infinity));
}

/** The centre of the focused field the outline knows of, or null. */
export function focusedFieldPoint(screen: ScreenContext): { x: number; y: number } | null {
  for (const e of focusedFields(screen)) {
    const r = e.rect;
    if (!r || ![r.x, r.y, r.width, r.height].every(Number.isFinite)) continue;
    return { x: Math.floor(r.x + r.width / 2), y: Math.floor(r.y + r.height / 2) };
  }
  return null;
}

/**
 * parse → validate → classify. `ocr` is what the caller's OCR read around the click's point (when
 * `needsOcr` said so), or why it read nothing; absent, nothing was read there. The outline label
 * is looked up here from `screen.outline`.
 */
export function checkAction(
  answer: unknown,
  screen: ScreenContext,
  rules: Rules,
  ocr?: OcrReading | null,
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
  const outlineServed = Array.isArray(screen.outline);
  const { kind, why } = classify(action, { outline, ocr, outlineServed }, rules);
  return { classification: kind, action, why };
}
