/**
 * An agent's screen rules (docs/rules.md) as its configuration holds them, checked and compiled for
 * screen-rules.ts, which applies them. Two shapes:
 *
 * - `{"title": "^Change Sales Order: Initial Screen$", "keys": {"Enter": "read"}, "labels":
 *   {"^Display$": "read"}}`: on screens whose title matches, the named keys, and clicks on elements
 *   whose label matches, are reads or writes as the rule says; and `"regions"`, clicks in
 *   rectangles of the screen (screen-rule-regions.ts). Instead of the title, or with it,
 *   `"transactions": ["VA03"]`: the screens of a transaction the host reports (both must hold).
 * - `{"command_field": {"transactions": ["VA02", "VA03"]}}`: typing `VA02`, `/nVA02` or `/oVA02`
 *   into the command field, and the Enter right after it, are reads.
 *
 * Pure: no I/O, no clock.
 */
import { canonicalKey, type KeySpellings } from '@warden/protocol';
import { isPlainObject } from '../../common/is-plain-object';
import type { Kind } from './action.types';
import { readRegions, type ScreenRuleRegion } from './screen-rule-regions';
import {
  compilePattern,
  newPatternBudget,
  type PatternBudget,
  patternProblem,
  SCREEN_RULE_PATTERNS_SIZE_MAX,
  type TenantPattern,
  unusablePattern,
} from './patterns';

export interface TitleScreenRule {
  /** A regular expression over the screen's title. */
  title?: string;
  /** Transaction codes: the rule is for screens the host reports in one of them. */
  transactions?: string[];
  keys?: Record<string, Kind>;
  labels?: Record<string, Kind>;
  regions?: ScreenRuleRegion[];
}

export interface CommandFieldScreenRule {
  command_field: { transactions: string[] };
}

/** One screen rule as an agent's configuration holds it (docs/rules.md, docs/api.md). */
export type ScreenRule = TitleScreenRule | CommandFieldScreenRule;

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

interface LabelPattern {
  pattern: TenantPattern;
  kind: Kind;
}

export interface CompiledTitleRule {
  /** 1-based, as the why names it. */
  n: number;
  /** Null: any title (the rule names transactions). */
  title: TenantPattern | null;
  /** Null: any transaction, or none reported (the rule names a title). */
  transactions: ReadonlySet<string> | null;
  keys: ReadonlyMap<string, Kind>;
  labels: readonly LabelPattern[];
  regions: readonly ScreenRuleRegion[];
}

export interface CompiledCommandFieldRule {
  n: number;
  transactions: ReadonlySet<string>;
}

/** An agent's screen rules, checked and compiled. */
export interface ScreenRules {
  readonly titled: readonly CompiledTitleRule[];
  readonly commandField: readonly CompiledCommandFieldRule[];
  /**
   * Stored patterns that cannot be run (`stored` reading only), each as a problem would name it:
   * they match nothing.
   */
  readonly unusable: readonly string[];
}

export const NO_SCREEN_RULES: ScreenRules = Object.freeze({
  titled: [],
  commandField: [],
  unusable: [],
});

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

export interface ReadScreenRules {
  /** The rules, normalised: keys canonical, transaction codes in upper case. */
  list: ScreenRule[];
  compiled: ScreenRules;
  /** Every problem, each starting with its path (`screen_rules[1].title is not …`). */
  problems: string[];
}

const SHAPES =
  'a screen rule is {"title": "^…$", "keys": {"Enter": "read"}, "labels": {"^…$": "read"}, "regions": [{"x": 0, "y": 130, "width": 800, "height": 300, "click": "read"}]} (with "transactions": ["VA03"] instead of the title or beside it) or {"command_field": {"transactions": ["VA02"]}}';
const TITLE_FIELDS = ['title', 'transactions', 'keys', 'labels', 'regions'];
const COMMAND_FIELD_FIELDS = ['command_field'];

const show = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 79)}…` : s);

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
    out.problems.push(`screen_rules must be a list: ${SHAPES}`);
    return out;
  }
  if (raw.length > SCREEN_RULE_LIMITS.rules) {
    out.problems.push(`screen_rules: at most ${SCREEN_RULE_LIMITS.rules} rules`);
    return out;
  }
  const titled: CompiledTitleRule[] = [];
  const commandField: CompiledCommandFieldRule[] = [];
  const patterns: Patterns = {
    mode,
    budget: newPatternBudget(SCREEN_RULE_PATTERNS_SIZE_MAX),
    unusable: [],
  };
  raw.forEach((item: unknown, i) => {
    const path = `screen_rules[${i}]`;
    const problems: string[] = [];
    const forScreens = isPlainObject(item) && ('title' in item || 'transactions' in item);
    if (!isPlainObject(item) || forScreens === 'command_field' in item) {
      out.problems.push(`${path}: ${SHAPES}`);
      return;
    }
    if (forScreens) {
      const rule = readTitleRule(item, path, i + 1, keyRules, patterns, problems);
      if (rule) {
        out.list.push(rule.rule);
        titled.push(rule.compiled);
      }
    } else {
      const rule = readCommandFieldRule(item, path, i + 1, problems);
      if (rule) {
        out.list.push(rule.rule);
        commandField.push(rule.compiled);
      }
    }
    out.problems.push(...problems);
  });
  if (out.problems.length === 0) {
    out.compiled = Object.freeze({ titled, commandField, unusable: patterns.unusable });
  }
  return out;
}

function unknownFields(
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

/** What reading one agent's patterns shares: how, what they may cost together, what could not run. */
interface Patterns {
  mode: ReadMode;
  budget: PatternBudget;
  unusable: string[];
}

function readPattern(
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

function readKind(v: unknown, path: string, problems: string[]): Kind | null {
  if (v === 'read' || v === 'write') return v;
  problems.push(`${path} must be "read" or "write"`);
  return null;
}

/** A map of `keys` or `labels`: an object of at most `entries` entries. */
function entriesOf(v: unknown, path: string, example: string, problems: string[]) {
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

function readTitleRule(
  item: Record<string, unknown>,
  path: string,
  n: number,
  keyRules: KeyRules,
  patterns: Patterns,
  problems: string[],
): { rule: TitleScreenRule; compiled: CompiledTitleRule } | null {
  const before = problems.length;
  unknownFields(item, TITLE_FIELDS, path, problems);
  const title =
    'title' in item ? readPattern(item.title, `${path}.title`, patterns, problems) : null;
  const transactions =
    'transactions' in item
      ? readTransactions(item.transactions, `${path}.transactions`, problems)
      : null;

  const keys = new Map<string, Kind>();
  const keyEntries = entriesOf(item.keys, `${path}.keys`, '{"Enter": "read"}', problems);
  for (const [name, value] of keyEntries) {
    const here = `${path}.keys[${show(name)}]`;
    const kind = readKind(value, here, problems);
    const key = name.length <= 64 ? canonicalKey(name, keyRules.keySpellings) : null;
    if (key === null) {
      problems.push(`${here}: ${show(name)} is not a key Warden knows`);
    } else if (!keyRules.navigationKeys.has(key) && !keyRules.commitKeys.has(key)) {
      problems.push(
        `${here}: key ${key} is neither a navigation nor a commit key, and Warden refuses it on every screen`,
      );
    } else if (kind) {
      // Two spellings of one key: a write wins.
      keys.set(key, keys.get(key) === 'write' ? 'write' : kind);
    }
  }

  const labels: LabelPattern[] = [];
  const labelMap: Record<string, Kind> = {};
  const labelEntries = entriesOf(item.labels, `${path}.labels`, '{"^Display$": "read"}', problems);
  for (const [source, value] of labelEntries) {
    const here = `${path}.labels[${show(source)}]`;
    const pattern = readPattern(source, here, patterns, problems);
    const kind = readKind(value, here, problems);
    if (pattern && kind) {
      labelMap[source] = kind;
      // A stored label pattern that cannot be run fails closed: as a write it names every label,
      // as a read none.
      if (pattern.unusable && kind === 'read') continue;
      labels.push({ pattern: pattern.unusable ? unusablePattern(source, true) : pattern, kind });
    }
  }

  const regions = readRegions(item.regions, `${path}.regions`, problems);

  const entries = keyEntries.length + labelEntries.length + regions.length;
  if (entries === 0 && problems.length === before) {
    problems.push(
      `${path} needs keys, labels or regions: what counts as a read or a write on the screens it is for`,
    );
  }
  if (problems.length > before || (!title && !transactions)) return null;
  const rule: TitleScreenRule = {};
  if (title) rule.title = title.source;
  if (transactions) rule.transactions = transactions;
  if (keyEntries.length > 0) rule.keys = Object.fromEntries(keys);
  if (labelEntries.length > 0) rule.labels = labelMap;
  if (regions.length > 0) rule.regions = regions;
  const codes = transactions ? new Set(transactions) : null;
  if (title?.unusable) {
    // A stored title that cannot be run fails closed: what the rule makes a write is a write on
    // every screen, what it makes a read is read nowhere.
    const writes = [...keys].filter(([, kind]) => kind === 'write');
    return {
      rule,
      compiled: {
        n,
        title: unusablePattern(title.source, true),
        transactions: codes,
        keys: new Map(writes),
        labels: labels.filter((l) => l.kind === 'write'),
        regions: regions.filter((r) => r.click === 'write'),
      },
    };
  }
  return { rule, compiled: { n, title, transactions: codes, keys, labels, regions } };
}

/** A list of 1 to `transactions` codes, in upper case, each once; null (and a problem) if not. */
function readTransactions(list: unknown, here: string, problems: string[]): string[] | null {
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

function readCommandFieldRule(
  item: Record<string, unknown>,
  path: string,
  n: number,
  problems: string[],
): { rule: CommandFieldScreenRule; compiled: CompiledCommandFieldRule } | null {
  const before = problems.length;
  unknownFields(item, COMMAND_FIELD_FIELDS, path, problems);
  const field = item.command_field;
  const here = `${path}.command_field`;
  if (!isPlainObject(field)) {
    problems.push(`${here} must be {"transactions": ["VA02", …]}`);
    return null;
  }
  unknownFields(field, ['transactions'], here, problems);
  const codes = readTransactions(field.transactions, `${here}.transactions`, problems);
  if (!codes || problems.length > before) return null;
  return {
    rule: { command_field: { transactions: codes } },
    compiled: { n, transactions: new Set(codes) },
  };
}
