import { invalid } from '../common/domain-error';

/**
 * How Warden reads a request body (docs/api.md): JSON, no deeper than MAX_BODY_DEPTH, with no key
 * that names a part of JavaScript's object machinery. Pure: the Fastify parsers in
 * json-body.parser.ts call it before anything else (guard, pipes, class-transformer) sees the body.
 */

/**
 * Deeper than any body needs (a scripted planner's script → steps → step → action → element is
 * five; a config's agents → agent → ignore_regions → rect is four). class-transformer walks
 * free-form objects recursively, so a deeper body could overflow the stack: a 500 for a bad request.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * Keys class-transformer and plain JavaScript treat as the object's machinery rather than its data
 * (`{"planner": {"constructor": 1}}` made class-transformer throw). No Warden body has a field so named.
 */
export const REFUSED_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

export const SEND_JSON = 'send the body as JSON (Content-Type: application/json)';

/**
 * Parses a body's text. `lenient` (a request with a bearer token, whatever its content type): an
 * empty body is no body. Throws `invalid(...)` (400) saying what is wrong.
 */
export function readJsonBody(text: string, options: { lenient: boolean }): unknown {
  if (options.lenient && text.length === 0) return undefined;
  let value: unknown;
  try {
    // JSON.parse makes `__proto__` an own key (it never sets the prototype); checkJsonBody refuses it.
    value = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw invalid(
      text.length === 0
        ? `the request body is empty: ${SEND_JSON}`
        : `the request body is not valid JSON (${why}): ${SEND_JSON}`,
    );
  }
  const problem = checkJsonBody(value);
  if (problem) throw invalid(problem);
  return value;
}

/**
 * What makes a parsed body unacceptable, or null: nesting deeper than MAX_BODY_DEPTH, a key in
 * REFUSED_KEYS, or a string that is not storable text; each named by its path
 * (`agents.a.planner.constructor`). Walks without recursion, so any depth the body limit allows
 * is safe to check.
 */
export function checkJsonBody(value: unknown): string | null {
  const stack: Node[] = [{ value, depth: 1, parent: null, key: null }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string' && !isStorableText(v)) {
      return `the body has a string at ${pathOf(node.parent!, node.key!)} with ${NOT_TEXT}`;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (node.depth > MAX_BODY_DEPTH) {
      return `the body nests deeper than ${MAX_BODY_DEPTH} levels (at ${pathOf(node.parent!, node.key!)})`;
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ value: v[i], depth: node.depth + 1, parent: node, key: i });
      }
      continue;
    }
    const keys = Object.keys(v);
    for (const key of keys) {
      if (REFUSED_KEYS.includes(key)) {
        return `the body has a key named "${key}" at ${pathOf(node, key)}: keys named ${REFUSED_KEYS.join(', ')} are refused`;
      }
      if (!isStorableText(key))
        return `the body has a key at ${pathOf(node, key)} with ${NOT_TEXT}`;
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      stack.push({
        value: (v as Record<string, unknown>)[key],
        depth: node.depth + 1,
        parent: node,
        key,
      });
    }
  }
  return null;
}

const NOT_TEXT = 'a NUL character (\\u0000) or half of a surrogate pair, which is not text';

/**
 * PostgreSQL stores neither U+0000 (in text or jsonb) nor an unpaired surrogate (in jsonb), and no
 * Warden field needs them: refused here, they cannot turn a goal or a comment into a 500 later.
 */
function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

interface Node {
  value: unknown;
  depth: number;
  parent: Node | null;
  key: string | number | null;
}

/** `agents.sap-orders.planner`, `steps[3].action`, `["a b"]`: where a key sits in the body. */
function pathOf(parent: Node, key: string | number): string {
  const parts: Array<string | number> = [key];
  for (let n: Node | null = parent; n && n.key !== null; n = n.parent) parts.push(n.key);
  let path = '';
  for (const part of parts.reverse()) {
    if (typeof part === 'number') path += `[${part}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(part)) path += path ? `.${part}` : part;
    else path += `[${JSON.stringify(part.length > 80 ? `${part.slice(0, 80)}…` : part)}]`;
  }
  return path;
}
