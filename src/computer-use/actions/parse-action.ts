/**
 * The parser: untrusted JSON from a planner in, an `Action` or a refusal out. Checks the shape
 * and the field values that belong to the vocabulary itself (docs/rules.md table); the checks that
 * need the screen or the rules are in `validate`. Never throws.
 */
import {
  ACTION_FIELDS,
  ACTION_LIMITS,
  ACTION_NAMES,
  type Action,
  type ActionName,
  isActionName,
  isScrollAmount,
  isScrollDirection,
  MAX_KEY_LENGTH,
  SCROLL_DIRECTIONS,
  textProblemInWords,
  typedTextProblem,
} from '@warden/protocol';
import type { ActionResult } from './action.types';
import { clean, codePointLength } from './text';

/** The vocabulary's field limits (`target` counted in code points here), and the answer's size. */
export const LIMITS = Object.freeze({
  ...ACTION_LIMITS,
  /** an answer handed over as a JSON string, in UTF-16 units. */
  jsonMax: 65_536,
});

type Fields = Record<string, unknown>;
type Check<T> = { ok: true; value: T } | { ok: false; reason: string };

const fail = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'boolean') return 'true/false';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return 'a number';
  return typeof v;
}

/** A plain object from any realm (a worker thread, a vm context): not a list, Map, Date or class. */
function isPlainObject(v: unknown): v is Fields {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  if (Object.prototype.toString.call(v) !== '[object Object]') return false;
  const proto = Object.getPrototypeOf(v) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}

const has = (o: Fields, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

function coordinate(o: Fields, name: 'x' | 'y'): Check<number> {
  const v = o[name];
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
    return fail(`“${name}” must be an integer (screen pixels), not ${describe(v)}`);
  }
  return { ok: true, value: v + 0 }; // + 0 turns -0 into 0
}

function describe(v: unknown): string {
  return typeof v === 'number' ? String(v) : typeName(v);
}

function message(o: Fields, name: 'summary' | 'reason'): Check<string> {
  const v = o[name];
  if (typeof v !== 'string') return fail(`“${name}” must be a string, not ${typeName(v)}`);
  if (v.trim() === '') return fail(`“${name}” must not be empty`);
  if (codePointLength(v) > LIMITS.messageMax) {
    return fail(`“${name}” must be at most ${LIMITS.messageMax} characters`);
  }
  return { ok: true, value: v };
}

/**
 * The `type` text rules that hold anywhere, the protocol's (shared with the screen host):
 * 1–500 code points, valid Unicode, no control characters but tab and newline, no bidirectional
 * controls and no invisible format characters.
 */
export function checkText(v: unknown): Check<string> {
  if (typeof v !== 'string') return fail(`“text” must be a string, not ${typeName(v)}`);
  const problem = typedTextProblem(v);
  return problem ? fail(`“text” ${textProblemInWords(problem)}`) : { ok: true, value: v };
}

function target(o: Fields): Check<string | undefined> {
  const v = o.target;
  if (v === undefined || v === null) return { ok: true, value: undefined };
  if (typeof v !== 'string') return fail(`“target” must be a string, not ${typeName(v)}`);
  if (codePointLength(v) > LIMITS.targetMax) {
    return fail(`“target” must be at most ${LIMITS.targetMax} characters`);
  }
  const t = v.trim();
  return { ok: true, value: t === '' ? undefined : t };
}

/**
 * Checks the shape and the vocabulary's own field rules of something that claims to be an action,
 * and returns a fresh, normalised copy (defaults filled in, direction lower case, target trimmed).
 */
export function checkShape(value: unknown): ActionResult {
  if (!isPlainObject(value)) return fail(`an action must be a JSON object, not ${typeName(value)}`);
  if (!has(value, 'action')) return fail('the field “action” is missing');
  const name = value.action;
  if (typeof name !== 'string') return fail(`“action” must be a string, not ${typeName(name)}`);
  if (!isActionName(name)) {
    return fail(`unknown action ${quoteValue(name)}; expected one of ${ACTION_NAMES.join(', ')}`);
  }
  const action = name;
  const spec = ACTION_FIELDS[action];
  for (const k of Object.keys(value)) {
    if (k !== 'action' && !spec.required.includes(k) && !spec.optional.includes(k)) {
      return fail(`${action} has no field ${quoteValue(k)}`);
    }
  }
  for (const k of spec.required) {
    if (!has(value, k) || value[k] === undefined) return fail(`${action} needs “${k}”`);
  }
  return checkFields(action, value);
}

function quoteValue(s: string): string {
  return `“${clean(s, 40)}”`;
}

function checkFields(action: ActionName, o: Fields): ActionResult {
  switch (action) {
    case 'click':
    case 'double_click': {
      const x = coordinate(o, 'x');
      if (!x.ok) return x;
      const y = coordinate(o, 'y');
      if (!y.ok) return y;
      const t = target(o);
      if (!t.ok) return t;
      const a: Action = { action, x: x.value, y: y.value };
      if (t.value !== undefined) a.target = t.value;
      return { ok: true, action: a };
    }
    case 'type': {
      const t = checkText(o.text);
      return t.ok ? { ok: true, action: { action, text: t.value } } : t;
    }
    case 'key': {
      const k = o.key;
      if (typeof k !== 'string') return fail(`“key” must be a string, not ${typeName(k)}`);
      if (k.length === 0 || k.length > MAX_KEY_LENGTH) {
        return fail(`“key” must be 1 to ${MAX_KEY_LENGTH} characters`);
      }
      return { ok: true, action: { action, key: k } };
    }
    case 'scroll': {
      const x = coordinate(o, 'x');
      if (!x.ok) return x;
      const y = coordinate(o, 'y');
      if (!y.ok) return y;
      const d = o.direction;
      const direction = typeof d === 'string' ? d.trim().toLowerCase() : d;
      if (!isScrollDirection(direction)) {
        return fail(`“direction” must be one of ${SCROLL_DIRECTIONS.join(', ')}`);
      }
      const amount = o.amount ?? LIMITS.amountDefault;
      if (!isScrollAmount(amount)) {
        return fail(`“amount” must be an integer from ${LIMITS.amountMin} to ${LIMITS.amountMax}`);
      }
      return {
        ok: true,
        action: {
          action,
          x: x.value,
          y: y.value,
          direction,
          amount,
        },
      };
    }
    case 'wait': {
      const s = o.seconds;
      if (
        typeof s !== 'number' ||
        !Number.isFinite(s) ||
        s < LIMITS.secondsMin ||
        s > LIMITS.secondsMax
      ) {
        return fail(`“seconds” must be a number from ${LIMITS.secondsMin} to ${LIMITS.secondsMax}`);
      }
      return { ok: true, action: { action, seconds: s } };
    }
    case 'done': {
      const m = message(o, 'summary');
      return m.ok ? { ok: true, action: { action, summary: m.value } } : m;
    }
    case 'fail': {
      const m = message(o, 'reason');
      return m.ok ? { ok: true, action: { action, reason: m.value } } : m;
    }
  }
}

/** Models often wrap JSON in a Markdown fence; one fence around the whole answer is removed. */
const FENCE = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i;

/**
 * Turns a planner's answer (a parsed JSON value, or the JSON text) into an action, or a refusal
 * with a reason a model and a person can read. Never throws, whatever it is given.
 */
export function parseAction(json: unknown): ActionResult {
  try {
    let value = json;
    if (typeof json === 'string') {
      if (json.length > LIMITS.jsonMax) {
        return fail(`the answer is too long (at most ${LIMITS.jsonMax} characters)`);
      }
      const trimmed = json.trim();
      const body = FENCE.exec(trimmed)?.[1] ?? trimmed;
      try {
        value = JSON.parse(body) as unknown;
      } catch {
        return fail('the answer is not valid JSON');
      }
    }
    return checkShape(value);
  } catch {
    // A hostile object (a throwing getter, a Proxy) must not take the caller down.
    return fail('the answer could not be read as an action');
  }
}
