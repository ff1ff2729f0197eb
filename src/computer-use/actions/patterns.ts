/**
 * Regular expressions an admin or a script writes, matched against text from the screen (outline
 * names, titles, labels): shared by scripted planners and screen rules. Both the pattern and the
 * text are untrusted, and the worker that matches them serves every tenant, so a pattern never runs
 * on JavaScript's backtracking engine: it is written in JavaScript's syntax (the `u` flag, as
 * always) and run by RE2 (re2js), whose time is linear in the text whatever the pattern.
 *
 * What RE2 cannot run in linear time is refused: lookahead, lookbehind and backreferences. The
 * rest keeps its JavaScript meaning (re2-syntax.ts rewrites it). Here: compiling, the size budgets,
 * and matching a screen's texts within a bound. Pure: no I/O.
 */
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { toRe2Syntax, Unsupported } from './re2-syntax';

/** A tenant's pattern, ready to match screen text. */
export interface TenantPattern {
  /** As the tenant wrote it. */
  readonly source: string;
  /** About how many steps RE2 takes per character of text, at worst (see `Cost`). */
  readonly size: number;
  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean;
  /** A stored pattern that cannot be run (`unusablePattern`): it matches all or nothing. */
  readonly unusable?: true;
}

export type CompiledPattern =
  { ok: true; pattern: TenantPattern } | { ok: false; why: string; tooLarge?: true };

/**
 * The largest program a pattern may make (see `Cost`): RE2 takes time linear in the text, times
 * this at worst. 2,000 leaves room for any title or label rule (`^.{0,200}$` is about 400) and
 * keeps the worst match of a long outline name to milliseconds.
 */
export const PATTERN_SIZE_MAX = 2_000;
/**
 * The most the patterns of one agent's screen rules may make together: what judging one action
 * costs at worst (every title and label rule tried on a 200-character text).
 */
export const SCREEN_RULE_PATTERNS_SIZE_MAX = 20_000;
/**
 * The most the patterns of one script may make together: what checking it costs (a step matches
 * with its own pattern only).
 */
export const SCRIPT_PATTERNS_SIZE_MAX = 100_000;

function jsSyntaxProblem(source: string): string | null {
  try {
    new RegExp(source, 'u'); // compiled, never run: it checks the syntax as before
    return null;
  } catch (error) {
    const prefix = `Invalid regular expression: /${source}/u: `;
    const message = error instanceof Error ? error.message : String(error);
    return message.startsWith(prefix) ? message.slice(prefix.length) : message;
  }
}

function runner(source: string, re: RE2JS, size: number): TenantPattern {
  return {
    source,
    size,
    test(text: string): boolean {
      try {
        return re.test(text);
      } catch {
        return false; // nothing the screen shows may throw out of a step: no match
      }
    },
  };
}

/** What the patterns of one agent's screen rules, or of one script, may cost together. */
export interface PatternBudget {
  readonly of: number;
  left: number;
}

export const newPatternBudget = (of: number): PatternBudget => ({ of, left: of });

const COPIES = 'a repeat such as {50} copies what it repeats 50 times';

/**
 * A tenant's pattern compiled for RE2, or why it cannot be one: `why` completes "… is not a valid
 * regular expression: ", or with `tooLarge` "… is too large to match cheaply: ". A budget shared
 * by several patterns is spent by each one compiled. Never throws.
 */
export function compilePattern(source: string, budget?: PatternBudget): CompiledPattern {
  if (typeof source !== 'string') return { ok: false, why: 'not a string' };
  const syntax = jsSyntaxProblem(source);
  if (syntax !== null) return { ok: false, why: syntax };
  try {
    const { re2, size } = toRe2Syntax(source);
    // Checked before RE2 compiles it: compiling a large program is itself slow.
    if (size > PATTERN_SIZE_MAX) {
      const why = `about ${size} steps per character of text, at most ${PATTERN_SIZE_MAX}; ${COPIES}`;
      return { ok: false, why, tooLarge: true };
    }
    if (budget && size > budget.left) {
      const why = `with the patterns before it, over ${budget.of} steps per character of text, the most they may take together; ${COPIES}`;
      return { ok: false, why, tooLarge: true };
    }
    const pattern = runner(source, RE2JS.compile(re2), size);
    if (budget) budget.left -= size;
    return { ok: true, pattern };
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, why: error.message };
    if (error instanceof RE2JSSyntaxException) {
      const what = error.input ? `${error.error}: ${error.input}` : error.error;
      return { ok: false, why: `RE2, which Warden matches patterns with, refuses it (${what})` };
    }
    return { ok: false, why: 'RE2, which Warden matches patterns with, cannot compile it' };
  }
}

/** Why a pattern cannot be one, completing "screen_rules[0].title …". */
export function patternProblem(compiled: CompiledPattern & { ok: false }): string {
  return compiled.tooLarge
    ? `is too large to match cheaply: ${compiled.why}`
    : `is not a valid regular expression: ${compiled.why}`;
}

/**
 * A stored pattern that cannot be run now (saved before Warden matched with RE2): it matches
 * every text or none, as its user decides what fails closed (a screen rule: its writes apply
 * everywhere, its reads nowhere; a script's step: it never matches).
 */
export function unusablePattern(source: string, matches = false): TenantPattern {
  return { source, size: 0, test: () => matches, unusable: true };
}

/**
 * RE2 steps one look may spend matching a pattern over the screen's texts: about 50 ms of one core
 * at worst, and room for the whole outline of any real screen (200,000 characters at size 20).
 */
export const MATCH_STEPS_MAX = 4_000_000;

/**
 * Whether the pattern matches one of the texts, each tested on its own, in order. Texts past the
 * budget are not read: a screen that shows megabytes of text matches nothing after it.
 */
export function matchesOne(pattern: TenantPattern, texts: Iterable<string>): boolean {
  let left = MATCH_STEPS_MAX;
  for (const text of texts) {
    left -= (text.length + 1) * Math.max(pattern.size, 1);
    if (left < 0) return false;
    if (pattern.test(text)) return true;
  }
  return false;
}
