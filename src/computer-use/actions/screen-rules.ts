/**
 * Applying an agent's screen rules (docs/rules.md), as screen-rules-read.ts compiled them, to an
 * action.
 *
 * They apply to what validation accepted (a refused action stays refused), over the default
 * classification: a rule that says "write" wins over any that says "read", a rule never makes a
 * read of a click whose planner's target names a committing verb, a title nothing could read lets
 * no title rule apply, and a transaction the host does not report none of the rules that name
 * transactions. The why names the rule, 1-based. Pure: no I/O, no clock.
 */
import type { Action, Classification, EarlierStep, Kind } from './action.types';
import {
  type CompiledCommandFieldRule,
  type CompiledTitleRule,
  SCREEN_RULE_LIMITS,
  type ScreenRules,
} from './screen-rules-read';
import { inRegion, regionWords } from './screen-rule-regions';
import { codePointLength, quote } from './text';
import { PERFORMED } from './typed-field';

/** The screen's title, as the screen rules match it. */
export interface ScreenTitle {
  text: string;
  /** The outline's `title` element, or OCR of the title bar where the host serves no outline. */
  source: 'outline' | 'ocr';
}

/** The clicked element's label, as the click's classification read it. */
export interface ClickLabel {
  text: string;
  source: 'outline' | 'ocr';
}

/** What the screen rules look at, beyond the action; the caller (check-action.ts) finds it. */
export interface ScreenFacts {
  /** Null: nothing could read it, and no title rule applies. */
  title: ScreenTitle | null;
  /**
   * The transaction code the host reports (outline), in upper case. Null: it reports none, and no
   * rule that names transactions applies.
   */
  transaction: string | null;
  /** For a click: its label (outline name, or an OCR reading that is a label); else null. */
  label: ClickLabel | null;
  /** For a click: a planner's target naming a committing verb; else null. */
  targetVerb: string | null;
  /** The outline locates the focus in the command field (never without an outline). */
  inCommandField: boolean;
  /** The run's last step whose action may have reached the screen. */
  previous: EarlierStep | null;
  /** For a click: its point; else null. */
  point: { x: number; y: number } | null;
  /**
   * For a click: the outline was served, has no element at the point, and nothing read a label
   * there. Only then does a region that says "read" apply.
   */
  unreadSpot: boolean;
}

interface Match {
  n: number;
  kind: Kind;
  /** What the rule judged, as the why names it: `Enter on “…”`. */
  what: string;
}

/** What a transaction code typed into the command field may be made of (ASCII only). */
const TYPED_CODE = /^[A-Za-z0-9_/]+$/;

/** Whether `text` is one of the rule's codes, alone or after `/n` or `/o` (`VA02`, `/nVA02`, `/oVA02`). */
function transactionTyped(text: string, rule: CompiledCommandFieldRule): boolean {
  if (!TYPED_CODE.test(text)) return false;
  const upper = text.toUpperCase();
  if (rule.transactions.has(upper)) return true;
  return /^\/[NO]/.test(upper) && rule.transactions.has(upper.slice(2));
}

/** Whether rules may match a title or label: not empty, and not longer than the limit. */
function matchable(text: string): boolean {
  return text !== '' && codePointLength(text) <= SCREEN_RULE_LIMITS.text;
}

/** Where a rule applied, as the why says it: `on “Change Sales Order: Initial Screen”`, `in transaction VA03`. */
function onScreen(rule: CompiledTitleRule, facts: ScreenFacts): string {
  const { title, transaction } = facts;
  const parts: string[] = [];
  if (rule.title && title) {
    parts.push(
      `on ${quote(title.text, Infinity)}${title.source === 'ocr' ? ' (the title read from the screen by OCR)' : ''}`,
    );
  }
  if (rule.transactions && transaction) parts.push(`in transaction ${transaction}`);
  return parts.join(' ');
}

/** Whether a rule is for this screen: its title matches (if it names one), and its transaction. */
function forThisScreen(rule: CompiledTitleRule, facts: ScreenFacts): boolean {
  const { title, transaction } = facts;
  if (rule.title && !(title && matchable(title.text) && rule.title.test(title.text))) return false;
  return !rule.transactions || (transaction !== null && rule.transactions.has(transaction));
}

const LABEL_WORDS = { outline: 'from the screen outline', ocr: 'read from the screen by OCR' };

function matches(action: Action, facts: ScreenFacts, rules: ScreenRules): Match[] {
  const found: Match[] = [];
  const { previous } = facts;
  const titled = rules.titled.filter((r) => forThisScreen(r, facts));
  switch (action.action) {
    case 'type':
      if (!facts.inCommandField) break;
      for (const rule of rules.commandField) {
        if (transactionTyped(action.text, rule)) {
          found.push({
            n: rule.n,
            kind: 'read',
            what: `typing ${quote(action.text, 40)} into the command field`,
          });
        }
      }
      break;
    case 'key': {
      const typed = previous?.action as { action?: unknown; text?: unknown } | null | undefined;
      const afterTyping =
        action.key === 'Enter' &&
        facts.inCommandField &&
        PERFORMED.has(previous?.outcome ?? '') &&
        typed?.action === 'type' &&
        typeof typed.text === 'string';
      if (afterTyping) {
        for (const rule of rules.commandField) {
          if (transactionTyped(typed.text as string, rule)) {
            found.push({
              n: rule.n,
              kind: 'read',
              what: `Enter after ${quote(typed.text as string, 40)} in the command field`,
            });
          }
        }
      }
      for (const rule of titled) {
        const kind = rule.keys.get(action.key);
        if (kind) found.push({ n: rule.n, kind, what: `${action.key} ${onScreen(rule, facts)}` });
      }
      break;
    }
    case 'click':
    case 'double_click': {
      const verb = action.action === 'double_click' ? 'double-click' : 'click';
      const point = facts.point;
      for (const rule of point ? titled : []) {
        for (const region of rule.regions) {
          if (!inRegion(region, point!.x, point!.y)) continue;
          if (region.click === 'read' && !facts.unreadSpot) continue;
          const where = `${verb} at (${point!.x}, ${point!.y}) in the region ${regionWords(region)}`;
          const what =
            region.click === 'read' ? `${where}, where the outline has no element,` : where;
          found.push({ n: rule.n, kind: region.click, what: `${what} ${onScreen(rule, facts)}` });
        }
      }
      const label = facts.label;
      if (!label || !matchable(label.text)) break;
      for (const rule of titled) {
        for (const { pattern, kind } of rule.labels) {
          if (!pattern.test(label.text)) continue;
          const on = `${verb} on ${quote(label.text)} (${LABEL_WORDS[label.source]})`;
          found.push({ n: rule.n, kind, what: `${on} ${onScreen(rule, facts)}` });
        }
      }
      break;
    }
    default:
      break;
  }
  return found;
}

/**
 * The classification of a valid action under the agent's screen rules: `base` (the default
 * rules' verdict) unless a rule applies. Any rule that says "write" makes a write; otherwise one
 * that says "read" makes a read, except of a click whose planner's target names a committing verb.
 * The first applying rule of the winning kind is named.
 */
export function applyScreenRules(
  action: Action,
  base: Classification,
  facts: ScreenFacts,
  rules: ScreenRules,
): Classification {
  if (rules.titled.length === 0 && rules.commandField.length === 0) return base;
  const found = matches(action, facts, rules);
  const write = found.find((m) => m.kind === 'write');
  if (write) return { kind: 'write', why: `${write.what} is a write by screen rule ${write.n}` };
  const read = found.find((m) => m.kind === 'read');
  if (!read) return base;
  if (base.kind === 'write' && facts.targetVerb !== null) {
    return {
      kind: 'write',
      why: `${base.why}; screen rule ${read.n} does not make a read of a click whose planner's target names a committing verb`,
    };
  }
  const why = `${read.what} is navigation by screen rule ${read.n}`;
  // A read the default rules made already needs no rule in force to stay one (but keeps whatever
  // weakening made it a read).
  const loosenedBy = base.kind === 'read' ? base.loosenedBy : { screenRule: read.n };
  return loosenedBy ? { kind: 'read', why, loosenedBy } : { kind: 'read', why };
}
