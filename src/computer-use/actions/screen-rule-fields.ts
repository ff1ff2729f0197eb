/**
 * What the shapes of screen rule (screen-rule-shapes.ts) share in reading an agent's
 * `screen_rules` (docs/rules.md): the bounds, the fields each shape takes, the transaction codes,
 * the patterns with what they may cost together, and a read or a write. Each problem pushed
 * starts with its path. Pure: no I/O, no clock.
 */
import type { KeySpellings } from '@warden/protocol';
import { isPlainObject } from '../../common/is-plain-object';
import type { Kind } from './action.types';
import {
  compilePattern,
  type PatternBudget,
  patternProblem,
  type TenantPattern,
  unusablePattern,
} from './patterns';

export const SCREEN_RULE_LIMITS = {
  /** Rules per agent. */
  rules: 50,
  /** Keys, and labels, per rule. */
  entries: 50,
  /** Characters of a regular expression. */
  pattern: 200,
  transactions: 100,
  /** Characters of a transaction code, its namespace included. */
  transaction: 40,
  /**
   * A title or label longer than this (code points) is not matched: no rule applies to it. Keeps
   * every match short, whatever the screen shows.
   */
  text: 200,
} as const;

/** `VA02`, `SE38`, `/SAPAPO/RES01`: letters, digits and `_`, with an optional `/NAMESPACE/`. */
const TRANSACTION = /^(?:\/[A-Z0-9_]+\/)?[A-Z0-9_]+$/;

/** Whether `code` (in upper case) is a transaction code a screen rule can name. */
export function isTransactionCode(code: string): boolean {
  return code.length <= SCREEN_RULE_LIMITS.transaction && TRANSACTION.test(code);
}

/**
 * How rules are read: `save` refuses a pattern that cannot be run; `stored` (rules saved earlier,
 * read when a step is judged) keeps the rule failing closed, names the pattern in `unusable`, and
 * lets only the rule's writes apply: a title that cannot be run matches every screen for its
 * writes and none for its reads; a label pattern that cannot be run, as a write, every label, as a
 * read, none.
 */
export type ReadMode = 'save' | 'stored';

/** What the key names of a rule are checked against: the spellings and the allowed keys. */
export interface KeyRules {
  keySpellings: KeySpellings;
  navigationKeys: ReadonlySet<string>;
  commitKeys: ReadonlySet<string>;
}

/** What reading one agent's patterns shares: how, what they may cost together, what could not run. */
export interface Patterns {
  mode: ReadMode;
  budget: PatternBudget;
  unusable: string[];
}

/** A value as a problem quotes it: at most 80 characters. */
export const show = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 79)}…` : s);

/** A problem for each field of `item` that is not one of `fields`. */
export function unknownFields(
  item: Record<string, unknown>,
  fields: string[],
  path: string,
  problems: string[],
): void {
  for (const key of Object.keys(item)) {
    if (!fields.includes(key)) {
      problems.push(
        `${path}.${key.slice(0, 80)} is not a field of this screen rule (${fields.join(', ')})`,
      );
    }
  }
}

export function readPattern(
  v: unknown,
  path: string,
  patterns: Patterns,
  problems: string[],
): TenantPattern | null {
  const max = SCREEN_RULE_LIMITS.pattern;
  if (typeof v !== 'string' || v.length === 0 || v.length > max) {
    problems.push(`${path} must be a regular expression of 1 to ${max} characters`);
    return null;
  }
  const compiled = compilePattern(v, patterns.budget);
  if (compiled.ok) return compiled.pattern;
  const problem = `${path} ${patternProblem(compiled)}`;
  if (patterns.mode === 'save') {
    problems.push(problem);
    return null;
  }
  patterns.unusable.push(problem);
  return unusablePattern(v);
}

export function readKind(v: unknown, path: string, problems: string[]): Kind | null {
  if (v === 'read' || v === 'write') return v;
  problems.push(`${path} must be "read" or "write"`);
  return null;
}

/** A map of `keys` or `labels`: an object of at most `entries` entries. */
export function entriesOf(v: unknown, path: string, example: string, problems: string[]) {
  if (v === undefined) return [];
  if (!isPlainObject(v)) {
    problems.push(`${path} must be an object: ${example}`);
    return [];
  }
  const entries = Object.entries(v);
  if (entries.length > SCREEN_RULE_LIMITS.entries) {
    problems.push(`${path}: at most ${SCREEN_RULE_LIMITS.entries} entries`);
    return [];
  }
  return entries;
}

/** A list of 1 to `transactions` codes, in upper case, each once; null (and a problem) if not. */
export function readTransactions(list: unknown, here: string, problems: string[]): string[] | null {
  const { transactions: max, transaction: longest } = SCREEN_RULE_LIMITS;
  if (!Array.isArray(list) || list.length === 0 || list.length > max) {
    problems.push(`${here} must be a list of 1 to ${max} transaction codes`);
    return null;
  }
  const before = problems.length;
  const codes: string[] = [];
  list.forEach((code: unknown, j) => {
    const upper = typeof code === 'string' ? code.toUpperCase() : '';
    if (typeof code !== 'string' || !isTransactionCode(upper)) {
      problems.push(
        `${here}[${j}] ${typeof code === 'string' ? show(code) : String(code)} is not a transaction code (letters, digits and _, at most ${longest} characters, with an optional /NAMESPACE/ before them)`,
      );
    } else if (!codes.includes(upper)) {
      codes.push(upper);
    }
  });
  return problems.length > before ? null : codes;
}
