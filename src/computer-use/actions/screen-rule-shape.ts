import type { Action, EarlierStep, Kind } from './action.types';
import type { KeyRules, Patterns } from './screen-rule-fields';

/**
 * What one shape of screen rule is (docs/rules.md): all that differs between shapes, in one entry
 * of SCREEN_RULE_SHAPES (screen-rule-shapes.ts). Everything else is the same for every shape: the
 * list and its bounds, which shape an item is (screen-rules-read.ts), how the matches of all rules
 * decide an action (screen-rules.ts), and how a change of rules is judged by its entries
 * (settings/screen-rule-effect.ts). `R` is a rule as an agent's configuration holds it, `C` as it
 * is compiled for matching.
 */
export interface ScreenRuleShape<R extends object, C extends { n: number }> {
  /** The shape as the problem of an item of no shape (or of two) shows it. */
  readonly example: string;
  /**
   * Whether its matches come before other shapes' (screen-rules.ts names the first rule that
   * makes an action a read): the more particular one.
   */
  readonly namedFirst?: boolean;
  /** Whether an item of `screen_rules` is written in this shape: exactly one shape claims each. */
  claims(item: object): boolean;
  /**
   * Reads one rule of this shape, normalised, and compiles it; null when its problems were pushed,
   * each starting with `at.path`.
   */
  read(
    item: Record<string, unknown>,
    at: RuleAt,
    context: ReadContext,
    problems: string[],
  ): { rule: R; compiled: C } | null;
  /** What the agent's rules of this shape make of a valid action on this screen, in their order. */
  matches(action: Action, facts: ScreenFacts, rules: readonly C[]): RuleMatch[];
  /**
   * What the rule decides, entry by entry (a key, a label pattern, a region, a code): each with
   * what makes it the same entry in another version of the rules (its identity, with the screens
   * it is for), so that a change is judged by its effect.
   */
  entries(rule: R): IdentifiedEntry[];
}

/** Where a rule stands in the agent's list: its path, and its number as the why names it (1-based). */
export interface RuleAt {
  path: string;
  n: number;
}

/** What reading one agent's rules shares: the keys it may name, and its patterns. */
export interface ReadContext {
  keyRules: KeyRules;
  patterns: Patterns;
}

/** A rule that applies to an action. */
export interface RuleMatch {
  n: number;
  kind: Kind;
  /** What the rule judged, as the why names it: `Enter on “…”`. */
  what: string;
}

export type EntryKind = Kind;

/** An entry, with what makes it the same entry in another version of the rules. */
export interface IdentifiedEntry {
  identity: unknown[];
  entry: RuleEntry;
}

/** One entry: what it decides, in words (`key Enter on titles matching “^…$”`), and its kind. */
export interface RuleEntry {
  kind: EntryKind;
  what: string;
}

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
