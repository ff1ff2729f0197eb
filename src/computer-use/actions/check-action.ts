/**
 * The whole question for one step, in one call: may the planner's answer be sent to this screen,
 * and is it a read or a write? parse → validate → labels → classify → the agent's screen rules.
 */
import type {
  Action,
  Labels,
  Loosening,
  OcrReading,
  OutlineElement,
  ScreenContext,
} from './action.types';
import { maskCardNumbers } from './card-number';
import { classify, controlKind } from './classify';
import { findCommitWord } from './commit-words';
import { type FocusMove, moveInWords, reachOf } from './focus-reach';
import {
  controlAt,
  focusedFields,
  focusInCommandField,
  isTextField,
  labelAt,
  labelText,
  outlineLabelAt,
  outlineTitle,
  outlineTransaction,
  underRedaction,
} from './label-at';
import { labelEvidence, type LabelEvidence } from './label-evidence';
import { judgeOcrReading } from './ocr-label';
import { parseAction } from './parse-action';
import { loadRules, type Rules } from './rules';
import { applyScreenRules, type ScreenFacts, type ScreenTitle } from './screen-rules';
import { clean, quote } from './text';
import { validate } from './validate';

/** What a refused text meant for a password field is recorded as, one per character. */
const WITHHELD = '•';

export interface Verdict {
  /** As a step records it (docs/api.md). */
  classification: 'read' | 'write' | 'invalid';
  /** The normalised action to send or hold; null when invalid. */
  action: Action | null;
  /** Why it is a read or a write, or why it was refused. */
  why: string;
  /** The weakening that made this a read, which must still be in force when it is sent. */
  loosenedBy?: Loosening;
  /**
   * A click that changes a value (a checkbox, an option): an edit, staged like typing under
   * commit-point approval. Not where a screen rule decided the action: a rule's write is held.
   */
  edit?: true;
  /**
   * A refused `type` action as it may be recorded: card digits masked, also those that complete a
   * number split over earlier actions (which the answer's own masking cannot see), and text meant
   * for a password or code field (or, after a Tab, text that may be) replaced by as many dots (at
   * most 64). Absent otherwise.
   */
  recorded?: Action;
  /** How its label was read (a click's or a typed field's), for the step's record. */
  labelEvidence?: LabelEvidence;
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
 * password rule needs it (docs/rules.md, "Never typed"). Where to read: `focusedFieldPoint`, else
 * where the run last clicked.
 */
export function needsFieldOcr(action: Action, screen: ScreenContext): boolean {
  if (action.action !== 'type') return false;
  return !focusedFields(screen).some((e) => typeof e.name === 'string' && clean(e.name, Infinity));
}

/**
 * True when the agent's title screen rules need the screen's title and only OCR can read it: a
 * key or a click, on a screen whose host serves no outline. The caller then reads the title bar
 * (`ScreenContext.titleBar`); with an outline, its `title` element is the title.
 */
export function needsTitle(action: Action, screen: ScreenContext, rules: Rules): boolean {
  if (!rules.screenRules.titled.some((r) => r.title) || Array.isArray(screen.outline)) return false;
  return action.action === 'key' || action.action === 'click' || action.action === 'double_click';
}

/**
 * The screen's title for screen rules: the outline's `title` element where the host serves an
 * outline (never OCR then), else what OCR read in the title bar, if it is a label (docs/rules.md,
 * "Labels fail closed"). Null: nothing could read it.
 */
export function screenTitle(screen: ScreenContext, rules: Rules): ScreenTitle | null {
  if (Array.isArray(screen.outline)) {
    const text = outlineTitle(screen.outline);
    return text === null ? null : { text, source: 'outline' };
  }
  const read = judgeOcrReading(screen.titleBar, rules);
  if (read.unreadable !== null || read.text === null) return null;
  const text = clean(read.text, Infinity);
  return text === '' ? null : { text, source: 'ocr' };
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
      refused.recorded = {
        action: 'type',
        text: recordedText(a.text, withheldFrom(a.text, valid.withheldFrom, screen, rules), before),
      };
    }
    return refused;
  }
  const action = valid.action;
  const labels: Labels = { ocr, outlineServed: Array.isArray(screen.outline) };
  let clicked: OutlineElement | null = null;
  if (action.action === 'click' || action.action === 'double_click') {
    labels.redacted = underRedaction(screen, action.x, action.y);
  }
  if ((action.action === 'click' || action.action === 'double_click') && screen.outline) {
    const element = controlAt(screen.outline, action.x, action.y, rules);
    clicked = element;
    if (element) {
      labels.outline = labelText(element.name);
      labels.description = labelText(element.description);
      labels.role = typeof element.role === 'string' ? element.role : null;
      labels.control = controlKind(element.role, rules);
    }
    const under = labelAt(screen.outline, action.x, action.y);
    if (!under) labels.noElement = true;
    if (under && isTextField(under, rules)) {
      labels.textField = typeof under.name === 'string' ? under.name.trim() : '';
    }
  }
  const base = classify(action, labels, rules);
  const judged = applyScreenRules(
    action,
    base,
    screenFacts(action, labels, screen, rules),
    rules.screenRules,
  );
  const { kind, loosenedBy } = judged;
  const through = action.action === 'type' ? reached(action.text, screen, rules) : undefined;
  // The approver is told where the text after a Tab may go, not only the field it starts in.
  const why = through ? `${judged.why}; ${goesOn(through.move, through.fields)}` : judged.why;
  const verdict: Verdict = { classification: kind, action, why };
  if (loosenedBy) verdict.loosenedBy = loosenedBy;
  if (judged === base && base.edit === true && kind === 'write') verdict.edit = true;
  const evidence = labelEvidence(
    action,
    action.action === 'type'
      ? {
          element: focusedFields(screen)[0] ?? null,
          ocr: screen.focusLabel,
          reached: through?.fields,
        }
      : { element: clicked, ocr },
  );
  if (evidence) verdict.labelEvidence = evidence;
  return verdict;
}

/**
 * A refused text as it may be recorded: card digits masked (also those completing a number typed
 * in pieces), and from `withheldFrom` on (what was meant for a password or code field, or may have
 * been) as many dots as it had, at most 64: never stored.
 */
function recordedText(
  text: string,
  withheldFrom: number | undefined,
  before: readonly string[],
): string {
  if (withheldFrom === undefined) return maskCardNumbers(text, before);
  const points = [...text];
  const kept = points.slice(0, withheldFrom).join('');
  const dots = WITHHELD.repeat(Math.min(points.length - withheldFrom, 64));
  return `${kept === '' ? '' : maskCardNumbers(kept, before)}${dots}`;
}

/**
 * Where the record of a refused text stops showing it: where validation said, and whatever
 * refused it, after its first Tab or newline with more text after it (that text may have been
 * meant for another field, a secret one among them). All of it where the screen cannot be read.
 */
function withheldFrom(
  text: string,
  said: number | undefined,
  screen: ScreenContext,
  rules: Rules,
): number | undefined {
  try {
    const reach = reachOf(text, screen, rules);
    return reach.kind === 'focused' ? said : Math.min(said ?? Infinity, reach.move.at);
  } catch {
    return 0;
  }
}

/** The fields valid typed text reaches after a Tab, and that Tab; undefined: none. */
function reached(
  text: string,
  screen: ScreenContext,
  rules: Rules,
): { move: FocusMove; fields: OutlineElement[] } | undefined {
  const reach = reachOf(text, screen, rules);
  return reach.kind === 'fields' && reach.unjudged === null ? reach : undefined;
}

/** At most this many fields are named in the why; the rest are counted. */
const NAMED_FIELDS = 5;

/** `after a Tab (character 5) the text goes on into whichever field has the focus then: …` */
function goesOn(move: FocusMove, fields: readonly OutlineElement[]): string {
  const named = fields.slice(0, NAMED_FIELDS).map((f) => quote(String(f.name), 40));
  const more = fields.length - named.length;
  const list = `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  return `after ${moveInWords(move)} the text goes on into whichever field has the focus then, one of ${list}`;
}

/** What the screen rules look at, found once the action is valid. */
function screenFacts(
  action: Action,
  labels: Labels,
  screen: ScreenContext,
  rules: Rules,
): ScreenFacts {
  const { titled, commandField } = rules.screenRules;
  const facts: ScreenFacts = {
    title: null,
    transaction: null,
    label: null,
    targetVerb: null,
    inCommandField: false,
    previous: screen.previous ?? null,
    point: null,
    unreadSpot: false,
  };
  if (titled.length === 0 && commandField.length === 0) return facts;
  if (titled.some((r) => r.title)) facts.title = screenTitle(screen, rules);
  if (titled.some((r) => r.transactions) && Array.isArray(screen.outline)) {
    facts.transaction = outlineTransaction(screen.outline);
  }
  if (commandField.length > 0) facts.inCommandField = focusInCommandField(screen, rules);
  if (action.action === 'click' || action.action === 'double_click') {
    facts.point = { x: action.x, y: action.y };
    if (labels.redacted) {
      // Nothing read under a redaction is a label a rule may match (a region may hide part of one).
    } else if (labels.outline) {
      facts.label = { text: clean(labels.outline, Infinity), source: 'outline' };
    } else {
      const read = judgeOcrReading(labels.ocr, rules);
      if (read.unreadable === null && read.text !== null) {
        facts.label = { text: clean(read.text, Infinity), source: 'ocr' };
      }
    }
    const target = action.target;
    if (typeof target === 'string' && findCommitWord(target, rules.commitIndex) !== null) {
      facts.targetVerb = target;
    }
    // Nothing names what is there: the outline has no element at the point, and no label was
    // read (an OCR reading, even one without a verb, is a label the rules judge). A spot under a
    // redaction is not one: its label was hidden from Warden, not missing.
    facts.unreadSpot =
      labels.noElement === true &&
      labels.redacted !== true &&
      facts.label === null &&
      !labels.description;
  }
  return facts;
}
