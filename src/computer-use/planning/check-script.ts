/**
 * Checks a script when it is created or updated (docs/models.md): at most 200 steps and 64 KB of JSON,
 * every action passes the same rules as a model's answer (the actions module's `checkShape` and
 * `validate`), with `element` allowed in place of `x, y`; regular expressions compile for RE2
 * (actions/patterns.ts), together no larger than it allows; unknown fields refused. The first error is returned, naming the step and the field:
 * `steps[3].action.action "explode": one of click, double_click, …`. Pure; never throws.
 */
import { ACTION_FIELDS } from '@warden/protocol';
import {
  ACTION_NAMES,
  type Action,
  type ActionName,
  checkShape,
  compilePattern,
  loadRules,
  newPatternBudget,
  type PatternBudget,
  type Rules,
  SCRIPT_PATTERNS_SIZE_MAX,
  validate,
} from '../actions';
import {
  type ElementRef,
  type Script,
  SCRIPT_LIMITS,
  type ScriptAction,
  type ScriptCheck,
  type ScriptCondition,
  type ScriptStep,
} from './script.types';
import { parsePlannerRef } from '../settings/parse-planner';
import { plannerKindOf } from './planner-kinds';
import { PARAM_LIMITS, PARAM_NAME, placeholdersIn, samplePattern } from './script-params';

/** Actions that aim at a point, and so may name an element instead. */
const POINTED: ReadonlySet<string> = new Set(['click', 'double_click', 'scroll']);

const SCRIPT_FIELDS = ['steps', 'patience', 'parameters', 'fallback'];
const STEP_FIELDS = ['step', 'when', 'patience', 'action'];
const CONDITION_FIELDS = ['text', 'element', 'screen_sha256'];
const ELEMENT_FIELDS = ['role', 'name'];

/** C0 and C1 controls other than tab, newline and carriage return; PostgreSQL's jsonb refuses NUL. */
const CONTROL = /[^\P{Cc}\t\n\r]/u;
const LONE_SURROGATE = /\p{Cs}/u;
const SHA256 = /^[0-9a-fA-F]{64}$/;

class Refusal extends Error {}

function refuse(message: string): never {
  throw new Refusal(message);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

const has = (o: Record<string, unknown>, k: string): boolean =>
  Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined;

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A value as a message quotes it: short, one line, no control characters. */
export function show(v: unknown, max = 40): string {
  if (typeof v === 'string') {
    const flat = [...v.replace(/[\p{Cc}\p{Cf}\p{Cs}]/gu, ' ')];
    return JSON.stringify(
      flat.length > max ? `${flat.slice(0, max - 1).join('')}…` : flat.join(''),
    );
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return '(a list)';
  return `(${typeof v === 'object' ? 'an object' : typeof v})`;
}

/** `parent.key`, or `parent["odd key"]` when the key is not a plain name. */
function child(parent: string, key: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${show(key)}]`;
}

function onlyFields(o: Record<string, unknown>, path: string, allowed: string[], what: string) {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) refuse(`${child(path, k)}: unknown field; ${what}`);
  }
}

function and(list: readonly string[]): string {
  return list.length < 2 ? list.join('') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
}

/** A string a script may hold: length in code points, valid Unicode, no control characters. */
function text(path: string, v: unknown, min: number, max: number, what: string): string {
  if (typeof v !== 'string') refuse(`${path} ${show(v)}: ${what}`);
  const n = codePoints(v);
  if (n < min || n > max) refuse(`${path}: ${min} to ${max} characters (it has ${n})`);
  if (LONE_SURROGATE.test(v)) refuse(`${path}: not valid Unicode (a lone surrogate)`);
  if (CONTROL.test(v)) refuse(`${path}: no control characters`);
  return v;
}

function patience(path: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > SCRIPT_LIMITS.patienceMax) {
    refuse(`${path} ${show(v)}: an integer from 0 to ${SCRIPT_LIMITS.patienceMax}`);
  }
  return v + 0;
}

function label(path: string, v: unknown): string | number {
  const what = `a label: a string of 1 to ${SCRIPT_LIMITS.labelMax} characters, or an integer`;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) refuse(`${path} ${show(v)}: ${what}`);
    return v + 0;
  }
  const s = text(path, v, 1, SCRIPT_LIMITS.labelMax, what);
  if (s.trim() === '') refuse(`${path}: ${what}, not blank`);
  return s;
}

function element(path: string, v: unknown): ElementRef {
  const what = 'an element {role, name}, as the outline names it';
  if (!isPlainObject(v)) refuse(`${path} ${show(v)}: ${what}`);
  onlyFields(v, path, ELEMENT_FIELDS, 'an element has role and name');
  const out: ElementRef = { role: '', name: '' };
  for (const [field, max] of [
    ['role', SCRIPT_LIMITS.roleMax],
    ['name', SCRIPT_LIMITS.nameMax],
  ] as const) {
    const p = `${path}.${field}`;
    if (!has(v, field)) refuse(`${p}: missing; ${what}`);
    const s = text(p, v[field], 1, max, `a string of 1 to ${max} characters`);
    if (s.trim() === '') refuse(`${p}: not blank`);
    out[field] = s;
  }
  return out;
}

/**
 * How a script's patterns are checked: against one size budget for them all, each as `sample`
 * makes it (a script with parameters: each placeholder stands for a value when the step runs, so
 * any value stands in for the check).
 */
interface PatternCheck {
  budget: PatternBudget;
  sample: (source: string) => string;
}

function regex(path: string, v: unknown, patterns: PatternCheck): string {
  const max = SCRIPT_LIMITS.regexMax;
  const source = text(path, v, 1, max, `a regular expression of 1 to ${max} characters`);
  const compiled = compilePattern(patterns.sample(source), patterns.budget);
  if (!compiled.ok) {
    const what = compiled.tooLarge
      ? 'too large to match cheaply'
      : 'not a valid regular expression';
    refuse(`${path} ${show(source)}: ${what} (${compiled.why})`);
  }
  return source;
}

function condition(path: string, v: unknown, patterns: PatternCheck): ScriptCondition {
  const what = 'one of {text}, {element} or {screen_sha256}';
  if (!isPlainObject(v)) refuse(`${path} ${show(v)}: ${what}`);
  onlyFields(v, path, CONDITION_FIELDS, `when has one of ${CONDITION_FIELDS.join(', ')}`);
  const present = CONDITION_FIELDS.filter((k) => has(v, k));
  if (present.length === 0) refuse(`${path}: empty; ${what}`);
  if (present.length > 1) {
    refuse(`${path}: only one of ${CONDITION_FIELDS.join(', ')} (it has ${and(present)})`);
  }
  switch (present[0]) {
    case 'text':
      return { text: regex(`${path}.text`, v.text, patterns) };
    case 'element':
      return { element: element(`${path}.element`, v.element) };
    default: {
      const sha = v.screen_sha256;
      if (typeof sha !== 'string' || !SHA256.test(sha)) {
        refuse(
          `${path}.screen_sha256 ${show(sha)}: 64 hexadecimal characters (the SHA-256 of the screenshot's PNG)`,
        );
      }
      return { screen_sha256: sha.toLowerCase() };
    }
  }
}

/** Where a refusal of `checkShape`/`validate` belongs: `“x” must be …` is about field x. */
function fieldOf(reason: string): { field: string; rest: string } | null {
  const m = /^“([a-z_]+)” ([\s\S]*)$/.exec(reason);
  return m ? { field: m[1], rest: m[2] } : null;
}

function action(path: string, v: unknown, rules: Rules): ScriptAction {
  const names = ACTION_NAMES.join(', ');
  if (!isPlainObject(v)) {
    refuse(`${path} ${show(v)}: an action object, such as {"action": "key", "key": "Enter"}`);
  }
  if (!has(v, 'action')) refuse(`${path}.action: missing; one of ${names}`);
  const name = v.action;
  if (typeof name !== 'string' || !(ACTION_NAMES as readonly string[]).includes(name)) {
    refuse(`${path}.action ${show(name)}: one of ${names}`);
  }
  const kind = name as ActionName;
  // The vocabulary's fields (@warden/protocol), so that an unknown or missing field is named here
  // with its step; the values are then checked by the actions module itself.
  const spec = ACTION_FIELDS[kind];
  const pointed = POINTED.has(kind);
  const allowed = ['action', ...spec.required, ...spec.optional, ...(pointed ? ['element'] : [])];
  onlyFields(v, path, allowed, `${kind} takes ${and(allowed.slice(1))}`);

  let target: ElementRef | null = null;
  let candidate: Record<string, unknown> = v;
  if (pointed && has(v, 'element')) {
    if (has(v, 'x') || has(v, 'y')) refuse(`${path}: either x and y or element, not both`);
    target = element(`${path}.element`, v.element);
    // The point is only known when the step runs; any point stands in for the shape check.
    candidate = { ...v, x: 0, y: 0 };
    delete candidate.element;
  }
  for (const field of spec.required) {
    if (!has(candidate, field)) {
      const needs = pointed
        ? ['x and y (or element)', ...spec.required.filter((k) => k !== 'x' && k !== 'y')]
        : spec.required;
      refuse(`${path}.${field}: missing; ${kind} needs ${and(needs)}`);
    }
  }

  const shape = checkShape(candidate);
  if (!shape.ok) {
    const f = fieldOf(shape.reason);
    refuse(f ? `${path}.${f.field}: ${f.rest}` : `${path}: ${shape.reason}`);
  }
  const checked = shape.action;
  if ('x' in checked && !target) {
    for (const axis of ['x', 'y'] as const) {
      if (checked[axis] < 0) refuse(`${path}.${axis} ${checked[axis]}: 0 or more (screen pixels)`);
    }
  }
  for (const field of ['target', 'summary', 'reason'] as const) {
    const s = (checked as unknown as Record<string, unknown>)[field];
    if (typeof s === 'string') text(`${path}.${field}`, s, 0, Infinity, 'a string');
  }
  // The checks that need the rules (allowed keys, card numbers), on a screen large enough for any
  // point; what depends on the screen is judged at each step.
  const huge = {
    width: Number.MAX_SAFE_INTEGER,
    height: Number.MAX_SAFE_INTEGER,
    outline: null,
    unseen: true as const,
  };
  const valid = validate(checked, huge, rules);
  if (!valid.ok) {
    const field = kind === 'key' ? '.key' : kind === 'type' ? '.text' : '';
    refuse(`${path}${field}: ${valid.reason}`);
  }
  const normal: Action = valid.action;
  if (!target) return normal;
  const { x: _x, y: _y, ...rest } = normal as Action & { x: number; y: number };
  return { ...rest, element: target } as ScriptAction;
}

function step(path: string, v: unknown, rules: Rules, patterns: PatternCheck): ScriptStep {
  if (!isPlainObject(v)) refuse(`${path} ${show(v)}: a step {step?, when?, patience?, action}`);
  onlyFields(v, path, STEP_FIELDS, `a step has ${and(STEP_FIELDS)}`);
  const out: ScriptStep = {} as ScriptStep;
  if (has(v, 'step')) out.step = label(`${path}.step`, v.step);
  if (has(v, 'when')) out.when = condition(`${path}.when`, v.when, patterns);
  if (has(v, 'patience')) out.patience = patience(`${path}.patience`, v.patience);
  if (!has(v, 'action')) refuse(`${path}.action: missing; every step has an action`);
  out.action = action(`${path}.action`, v.action, rules);
  return out;
}

function parameters(v: unknown): string[] {
  const what = `a list of at most ${PARAM_LIMITS.count} parameter names (a-z, 0-9, _; starting with a letter)`;
  if (!Array.isArray(v)) refuse(`parameters ${show(v)}: ${what}`);
  if (v.length > PARAM_LIMITS.count)
    refuse(`parameters: ${v.length} names; at most ${PARAM_LIMITS.count}`);
  const names: string[] = [];
  v.forEach((name: unknown, i) => {
    if (typeof name !== 'string' || !PARAM_NAME.test(name))
      refuse(`parameters[${i}] ${show(name)}: ${what}`);
    if (names.includes(name)) refuse(`parameters[${i}] ${show(name)}: named twice`);
    names.push(name);
  });
  return names;
}

function fallback(v: unknown) {
  // A script, the navigator: Warden's own kinds say whether they can be a fallback.
  const notFallback = plannerKindOf(v)?.notFallback;
  if (notFallback !== undefined) {
    refuse(`fallback ${show(v)}: a model planner (a catalog id or a model object)${notFallback}`);
  }
  const problems: string[] = [];
  const planner = parsePlannerRef(v, 'fallback', problems);
  if (!planner) refuse(problems[0] ?? 'fallback: a model planner (a catalog id or a model object)');
  return planner;
}

function jsonBytes(value: unknown): number {
  const json = JSON.stringify(value);
  if (json === undefined) refuse('script: missing; an object {steps, patience?}');
  return Buffer.byteLength(json, 'utf8');
}

function script(value: unknown, rules: Rules): Script {
  const max = SCRIPT_LIMITS.bytes;
  const bytes = jsonBytes(value);
  if (bytes > max) refuse(`script: ${bytes} bytes of JSON; at most ${max}`);
  if (!isPlainObject(value)) refuse(`script ${show(value)}: an object {steps, patience?}`);
  onlyFields(value, '', SCRIPT_FIELDS, `a script has ${and(SCRIPT_FIELDS)}`);
  const limit = SCRIPT_LIMITS.steps;
  const what = `a list of 1 to ${limit} steps`;
  if (!has(value, 'steps')) refuse(`steps: missing; ${what}`);
  const steps = value.steps;
  if (!Array.isArray(steps)) refuse(`steps ${show(steps)}: ${what}`);
  if (steps.length === 0) refuse(`steps: empty; ${what}`);
  if (steps.length > limit) refuse(`steps: ${steps.length} steps; at most ${limit}`);
  const out: Script = { steps: [] };
  if (has(value, 'patience')) out.patience = patience('patience', value.patience);
  const declared = has(value, 'parameters') ? parameters(value.parameters) : null;
  if (declared) out.parameters = declared;
  if (has(value, 'fallback')) out.fallback = fallback(value.fallback);
  const patterns: PatternCheck = {
    budget: newPatternBudget(SCRIPT_PATTERNS_SIZE_MAX),
    sample: declared ? samplePattern : (source) => source,
  };
  for (let i = 0; i < steps.length; i++) {
    const checked = step(`steps[${i}]`, steps[i], rules, patterns);
    if (declared) {
      const unknown = placeholdersIn(JSON.stringify(checked)).filter((n) => !declared.includes(n));
      if (unknown.length > 0) {
        refuse(
          `steps[${i}]: {{${unknown[0]}}} is not a parameter of the script (parameters: ${declared.join(', ') || 'none'})`,
        );
      }
    }
    out.steps.push(checked);
  }
  // Defaults filled in can make it longer; what is stored must pass this check again.
  const normal = jsonBytes(out);
  if (normal > max)
    refuse(`script: ${normal} bytes of JSON with defaults filled in; at most ${max}`);
  return out;
}

/**
 * Checks untrusted JSON that claims to be a script. Returns the script normalised (the actions as
 * the actions module normalises them, keys in their canonical spelling, hashes in lower case),
 * which is what is stored, or the first error. Never throws, whatever it is given.
 */
export function checkScript(value: unknown, rules: Rules = loadRules()): ScriptCheck {
  try {
    return { ok: true, script: script(value, rules) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, error: error.message };
    // A hostile value (a throwing getter, a Proxy, a cycle) must not take the caller down.
    return { ok: false, error: 'script: could not be read as JSON' };
  }
}
