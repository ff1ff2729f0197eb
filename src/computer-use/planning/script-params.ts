/**
 * A script's parameters (routine runs): a script that declares `parameters` writes `{{name}}` in
 * the text it types, its `done` summary and `fail` reason, the names of the elements it aims at
 * and waits for, and its `when.text` patterns; a run of it is started with a value for each
 * (`{"params": {"order": "4712"}}`). A value is plain text: at most 500 characters, no control
 * characters; in a pattern it stands for itself (escaped), never for a pattern. Pure.
 */
import { charName, hiddenCharacterProblem } from '@warden/protocol';

/** A parameter's name: a lower-case letter, then letters, digits or `_`, at most 40 characters. */
export const PARAM_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const PLACEHOLDER = /\{\{([a-z][a-z0-9_]{0,39})\}\}/g;

export const PARAM_LIMITS = Object.freeze({
  /** Parameters a script may declare. */
  count: 20,
  /** A value, in code points. */
  valueMax: 500,
});

export type Params = Record<string, string>;

/** The parameter names a text writes as `{{name}}`, in order, each once. */
export function placeholdersIn(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(PLACEHOLDER)) names.add(m[1]);
  return [...names];
}

/** The text with each `{{name}}` replaced by its value (a name without a value stays as it is). */
export function fillText(text: string, params: Params): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? params[name] : whole,
  );
}

/** A regular expression that matches the text itself. */
export function escapePattern(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** A `when.text` pattern as checking sees it: each `{{name}}` stands for a value, any value. */
export function samplePattern(pattern: string): string {
  return pattern.replace(PLACEHOLDER, 'x');
}

/** A `when.text` pattern with each `{{name}}` replaced by its value, escaped. */
export function fillPattern(pattern: string, params: Params): string {
  return pattern.replace(PLACEHOLDER, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? escapePattern(params[name]) : whole,
  );
}

/** Why a parameter's value may not be used, or null. */
export function valueProblem(name: string, value: unknown): string | null {
  if (typeof value !== 'string') return `parameter ${name} must be a string`;
  const n = [...value].length;
  if (n < 1 || n > PARAM_LIMITS.valueMax) {
    return `parameter ${name} must have 1 to ${PARAM_LIMITS.valueMax} characters (it has ${n})`;
  }
  // The check of typed text and goals (docs/rules.md), with no control character allowed.
  const hidden = hiddenCharacterProblem(value);
  if (hidden) {
    const found = hidden.kind === 'surrogate' ? 'a lone surrogate' : charName(hidden.char);
    return `parameter ${name} must not contain control, invisible or bidirectional characters (it has ${found})`;
  }
  return null;
}

/**
 * The parameters of a run of a script that declares `declared`: every one given, no other, each a
 * plain value. The first problem names the parameter.
 */
export function checkRunParams(
  declared: readonly string[],
  given: unknown,
): { ok: true; params: Params } | { ok: false; error: string } {
  if (given !== undefined && given !== null) {
    if (typeof given !== 'object' || Array.isArray(given)) {
      return { ok: false, error: 'params must be an object {name: value}' };
    }
  }
  const values = (given ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(values)) {
    if (!declared.includes(name)) {
      const known = declared.length ? `: it has ${declared.join(', ')}` : ': it has none';
      return { ok: false, error: `parameter ${name} is not a parameter of the script${known}` };
    }
  }
  const params: Params = {};
  for (const name of declared) {
    if (!Object.prototype.hasOwnProperty.call(values, name) || values[name] === undefined) {
      return {
        ok: false,
        error: `parameter ${name} is missing: the script needs ${declared.join(', ')}`,
      };
    }
    const problem = valueProblem(name, values[name]);
    if (problem) return { ok: false, error: problem };
    params[name] = values[name] as string;
  }
  return { ok: true, params };
}

/** The goal of a run of a script with parameters: the goal, naming the values used. */
export function goalWithParams(goal: string, params: Params): string {
  const names = Object.keys(params);
  if (names.length === 0) return goal;
  const values = names.map((n) => `${n} = ${JSON.stringify(params[n])}`).join(', ');
  return `${goal} (parameters: ${values})`;
}
