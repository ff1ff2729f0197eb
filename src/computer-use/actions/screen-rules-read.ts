/**
 * An agent's screen rules (docs/rules.md) as its configuration holds them, checked and compiled for
 * screen-rules.ts, which applies them. Each item of the list is of exactly one shape
 * (screen-rule-shapes.ts: a rule for screens by title or transaction, title-screen-rule.ts; codes
 * typed into the command field, command-field-screen-rule.ts), which reads it. Pure: no I/O, no
 * clock.
 */
import { isPlainObject } from '../../common/is-plain-object';
import { newPatternBudget, SCREEN_RULE_PATTERNS_SIZE_MAX } from './patterns';
import {
  type KeyRules,
  type Patterns,
  type ReadMode,
  SCREEN_RULE_LIMITS,
} from './screen-rule-fields';
import {
  type ScreenRule,
  type ScreenRules,
  type ScreenRuleShapeKey,
  SHAPES,
  SHAPES_IN_WORDS,
} from './screen-rule-shapes';

export {
  isTransactionCode,
  type KeyRules,
  type ReadMode,
  SCREEN_RULE_LIMITS,
} from './screen-rule-fields';
export type { ScreenRule, ScreenRules } from './screen-rule-shapes';
export type { CommandFieldScreenRule } from './command-field-screen-rule';
export type { TitleScreenRule } from './title-screen-rule';

/** No rules: every shape's list empty. */
export const NO_SCREEN_RULES = compiledRules(new Map(SHAPES.map(([key]) => [key, []])), []);

export interface ReadScreenRules {
  /** The rules, normalised: keys canonical, transaction codes in upper case. */
  list: ScreenRule[];
  compiled: ScreenRules;
  /** Every problem, each starting with its path (`screen_rules[1].title is not …`). */
  problems: string[];
}

/**
 * Checks an agent's `screen_rules` and compiles them; null or absent is none. Never throws: what
 * is wrong comes back in `problems`, and only valid rules are compiled.
 */
export function readScreenRules(
  raw: unknown,
  keyRules: KeyRules,
  mode: ReadMode = 'save',
): ReadScreenRules {
  const out: ReadScreenRules = { list: [], compiled: NO_SCREEN_RULES, problems: [] };
  if (raw === undefined || raw === null) return out;
  if (!Array.isArray(raw)) {
    out.problems.push(`screen_rules must be a list: ${SHAPES_IN_WORDS}`);
    return out;
  }
  if (raw.length > SCREEN_RULE_LIMITS.rules) {
    out.problems.push(`screen_rules: at most ${SCREEN_RULE_LIMITS.rules} rules`);
    return out;
  }
  const compiled = new Map<ScreenRuleShapeKey, Array<{ n: number }>>(
    SHAPES.map(([key]) => [key, []]),
  );
  const patterns: Patterns = {
    mode,
    budget: newPatternBudget(SCREEN_RULE_PATTERNS_SIZE_MAX),
    unusable: [],
  };
  raw.forEach((item: unknown, i) => {
    const path = `screen_rules[${i}]`;
    const shapes = isPlainObject(item) ? SHAPES.filter(([, shape]) => shape.claims(item)) : [];
    if (!isPlainObject(item) || shapes.length !== 1) {
      out.problems.push(`${path}: ${SHAPES_IN_WORDS}`);
      return;
    }
    const [key, shape] = shapes[0];
    const problems: string[] = [];
    const rule = shape.read(item, { path, n: i + 1 }, { keyRules, patterns }, problems);
    if (rule) {
      out.list.push(rule.rule);
      compiled.get(key)!.push(rule.compiled);
    }
    out.problems.push(...problems);
  });
  if (out.problems.length === 0) {
    out.compiled = compiledRules(compiled, patterns.unusable);
  }
  return out;
}

/** The compiled rules, each shape's list under its key, frozen. */
function compiledRules(
  lists: ReadonlyMap<ScreenRuleShapeKey, ReadonlyArray<{ n: number }>>,
  unusable: readonly string[],
): ScreenRules {
  // Sound: each list holds only what its own shape compiled.
  return Object.freeze({ ...Object.fromEntries(lists), unusable }) as unknown as ScreenRules;
}
