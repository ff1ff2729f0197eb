/**
 * Seeded random requests for test/api/random-bodies.e2e-spec.ts: bodies that are almost right (a route's
 * OpenAPI schema or a known example, then mutated), JSON-ish noise, deep nesting, odd keys, huge
 * numbers, control characters, bytes that are not JSON, and odd content types, path parameters and
 * query strings. The same seed gives the same requests.
 */

export type Rng = () => number;

/** mulberry32: small, fast, and the same on every machine. */
export function rngOf(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (rng: Rng, below: number) => Math.floor(rng() * below);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[int(rng, items.length)];
const chance = (rng: Rng, p: number) => rng() < p;

/**
 * JSON as written, so a body can hold what JS values cannot express or would lose: numbers as text
 * (`1e400`, `-0`, 30 digits), repeated keys and a `__proto__` key in order.
 */
export type Json = null | boolean | string | Raw | Json[] | Obj;
/** JSON text taken as it is: numbers as written, deep nesting. */
export class Raw {
  constructor(readonly text: string) {}
}
export class Obj {
  constructor(readonly entries: Array<[string, Json]>) {}
}

export function toText(value: Json): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toText).join(',')}]`;
  return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toText(v)}`).join(',')}}`;
}

export function fromPlain(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return new Raw(JSON.stringify(value));
  if (Array.isArray(value)) return value.map(fromPlain);
  return new Obj(Object.entries(value).map(([k, v]) => [k, fromPlain(v)]));
}

function clone(value: Json): Json {
  if (Array.isArray(value)) return value.map(clone);
  if (value instanceof Obj) return new Obj(value.entries.map(([k, v]) => [k, clone(v)]));
  return value;
}

export function uuid(rng: Rng): string {
  const hex = Array.from({ length: 32 }, () => int(rng, 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[int(rng, 4)];
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// ---- values -------------------------------------------------------------------------------------

const ODD_NUMBERS = [
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '0.5',
  '-1',
  '2147483648',
  '9007199254740993',
  '123456789012345678901234567890',
  '1.7976931348623157e308',
  '5e-324',
  '1E3',
];

const ODD_STRINGS = (rng: Rng): string[] => [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0007\u0008\u001b[31mred',
  '\u202eevil',
  '\ud800',
  '\udfff\ud800',
  '😀',
  'null',
  '<script>alert(1)</script>',
  "'; drop table runs; --",
  '../../etc/passwd',
  '%00',
  'x'.repeat(1 + int(rng, 3000)),
  'é'.repeat(int(rng, 600)),
  'https://user:pass@host.internal/?token=abc',
  'scripted-' + uuid(rng),
  uuid(rng),
  'sap-orders',
  '2026-13-45T99:99:99Z',
  'NaN',
  'Infinity',
  '[object Object]',
];

const ODD_KEYS = [
  'constructor',
  '__proto__',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'then',
  'length',
  '',
  ' ',
  'a.b',
  '[0]',
  '\u0000',
  '😀',
  '0',
  '-1',
  'agents',
  'enabled',
  'steps',
  'action',
  'token',
  'api_key',
  'x'.repeat(500),
];
const REFUSED = new Set(['constructor', '__proto__', 'prototype']);

function scalar(rng: Rng): Json {
  switch (int(rng, 6)) {
    case 0:
      return null;
    case 1:
      return chance(rng, 0.5);
    case 2:
      return new Raw(pick(rng, ODD_NUMBERS));
    case 3:
      return new Raw(String(int(rng, 1000) - 100));
    default:
      return pick(rng, ODD_STRINGS(rng));
  }
}

function oddKey(rng: Rng): string {
  // Mostly keys that are allowed, so the rest of the pipeline gets to see them.
  let key = pick(rng, ODD_KEYS);
  while (REFUSED.has(key) && chance(rng, 0.8)) key = pick(rng, ODD_KEYS);
  return key;
}

export function randomJson(rng: Rng, depth = 0): Json {
  if (depth > 5 || chance(rng, 0.4)) return scalar(rng);
  if (chance(rng, 0.5))
    return Array.from({ length: int(rng, 4) }, () => randomJson(rng, depth + 1));
  return new Obj(
    Array.from({ length: int(rng, 4) }, () => [
      chance(rng, 0.5) ? oddKey(rng) : `k${int(rng, 10)}`,
      randomJson(rng, depth + 1),
    ]),
  );
}

/** Written out as text: a tree this deep would overflow toText's recursion. */
function deep(rng: Rng, depth: number, inner: Json = null): Json {
  const [open, close] = chance(rng, 0.5) ? ['[', ']'] : ['{"a":', '}'];
  return new Raw(open.repeat(depth) + toText(inner) + close.repeat(depth));
}

// ---- schemas ------------------------------------------------------------------------------------

type Schema = Record<string, any>;

/** A value the schema describes, with its examples and defaults where it has them. */
export function sampleOf(schema: Schema, doc: Schema, rng: Rng, depth = 0): Json {
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop()!;
    return sampleOf(doc.components.schemas[name], doc, rng, depth);
  }
  if (schema.allOf) return sampleOf(schema.allOf[0], doc, rng, depth);
  if (schema.oneOf || schema.anyOf)
    return sampleOf(pick(rng, schema.oneOf ?? schema.anyOf), doc, rng, depth);
  if (schema.enum) return fromPlain(pick(rng, schema.enum));
  if (schema.example !== undefined && chance(rng, 0.8)) return fromPlain(schema.example);
  if (schema.default !== undefined && chance(rng, 0.5)) return fromPlain(schema.default);
  switch (schema.type) {
    case 'object': {
      const entries: Array<[string, Json]> = [];
      const required = new Set<string>(schema.required ?? []);
      for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) {
        if (required.has(key) || chance(rng, 0.6)) {
          entries.push([key, sampleOf(sub, doc, rng, depth + 1)]);
        }
      }
      const extra = schema.additionalProperties;
      if (extra && depth < 6) {
        for (let i = 0; i < 1 + int(rng, 2); i++) {
          const key = pick(rng, ['sap-orders', 'a', `agent-${int(rng, 100)}`]);
          const value = extra === true ? randomJson(rng, 3) : sampleOf(extra, doc, rng, depth + 1);
          entries.push([key, value]);
        }
      }
      return new Obj(entries);
    }
    case 'array':
      return depth < 6
        ? Array.from({ length: int(rng, 3) }, () =>
            sampleOf(schema.items ?? {}, doc, rng, depth + 1),
          )
        : [];
    case 'string':
      if (typeof schema.pattern === 'string' && schema.pattern.includes('scripted-')) {
        return `scripted-${uuid(rng)}`;
      }
      return pick(rng, ['x', 'sap-orders', 'Checked.', `s${int(rng, 1000)}`]);
    case 'number':
    case 'integer':
      return new Raw(String(schema.minimum ?? int(rng, 50)));
    case 'boolean':
      return chance(rng, 0.5);
    default:
      return randomJson(rng, 3);
  }
}

// ---- mutations ----------------------------------------------------------------------------------

interface Slot {
  get(): Json;
  set(value: Json): void;
}

/** Every place in a value that holds a value, the root included. */
function slotsOf(root: { value: Json }): Slot[] {
  const slots: Slot[] = [{ get: () => root.value, set: (v) => (root.value = v) }];
  const walk = (value: Json) => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        slots.push({ get: () => value[i], set: (v) => (value[i] = v) });
        walk(item);
      });
    } else if (value instanceof Obj) {
      value.entries.forEach((entry) => {
        slots.push({ get: () => entry[1], set: (v) => (entry[1] = v) });
        walk(entry[1]);
      });
    }
  };
  walk(root.value);
  return slots;
}

function objectsOf(value: Json, found: Obj[] = []): Obj[] {
  if (Array.isArray(value)) value.forEach((v) => objectsOf(v, found));
  else if (value instanceof Obj) {
    found.push(value);
    value.entries.forEach(([, v]) => objectsOf(v, found));
  }
  return found;
}

export function mutate(value: Json, rng: Rng, times: number): Json {
  const root = { value };
  for (let i = 0; i < times; i++) {
    const slot = pick(rng, slotsOf(root));
    const objects = objectsOf(root.value);
    const current = slot.get();
    switch (int(rng, 10)) {
      case 0:
        slot.set(scalar(rng));
        break;
      case 1:
        slot.set([current]);
        break;
      case 2:
        slot.set(current instanceof Obj ? current.entries.map(([, v]) => v) : new Obj([]));
        break;
      case 3:
        if (objects.length > 0) pick(rng, objects).entries.push([oddKey(rng), randomJson(rng, 3)]);
        break;
      case 4: {
        const obj = objects.length > 0 ? pick(rng, objects) : null;
        if (obj && obj.entries.length > 0) obj.entries.splice(int(rng, obj.entries.length), 1);
        break;
      }
      case 5: {
        const obj = objects.length > 0 ? pick(rng, objects) : null;
        if (obj && obj.entries.length > 0) {
          const [key] = pick(rng, obj.entries);
          obj.entries.push([key, scalar(rng)]);
        }
        break;
      }
      case 6:
        slot.set(new Raw(pick(rng, ODD_NUMBERS)));
        break;
      case 7:
        slot.set(pick(rng, ODD_STRINGS(rng)));
        break;
      case 8:
        slot.set(randomJson(rng));
        break;
      default:
        slot.set(deep(rng, pick(rng, [2, 8, 30, 31, 32, 33, 40]), current));
    }
  }
  return root.value;
}

// ---- requests -----------------------------------------------------------------------------------

export interface Route {
  method: string;
  /** As OpenAPI writes it: `/api/planners/{id}`. */
  path: string;
  bodySchema?: Schema;
  query: string[];
}

export interface RandomRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What the body was meant to be, for the failure report. */
  kind: string;
}

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/octet-stream',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'text/html',
  '*/*',
  'image/png',
  'garbage',
  'application/json;;;',
];

const NOT_JSON = (rng: Rng): Array<[string, Buffer]> => [
  ['form', Buffer.from('enabled=true&agents[a][planner]=x')],
  ['truncated', Buffer.from('{"enabled": true, "agents": {')],
  ['bytes', Buffer.from(Array.from({ length: 1 + int(rng, 300) }, () => int(rng, 256)))],
  ['undefined', Buffer.from('undefined')],
  ['NaN', Buffer.from('NaN')],
  ['bom', Buffer.from('\ufeff{"a":1}')],
  ['utf16', Buffer.from('{"enabled":true}', 'utf16le')],
  ['raw control', Buffer.from('{"a":"x\u0001y"}')],
  ['trailing comma', Buffer.from('{"a":1,}')],
  ['single quotes', Buffer.from("{'a':1}")],
  ['whitespace', Buffer.from(' \n\t ')],
  ['two values', Buffer.from('{}{}')],
  ['comment', Buffer.from('{"a":1 /* c */}')],
  ['deep unclosed', Buffer.from('['.repeat(100_000))],
];

export interface RequestPool {
  /** Values for path parameters that name something that exists (a planner id). */
  knownIds: string[];
  /** Known good bodies by `METHOD path`, beside what the schema makes. */
  examples: Record<string, unknown[]>;
}

function pathParam(rng: Rng, pool: RequestPool): string {
  return pick(rng, [
    uuid(rng),
    uuid(rng),
    ...pool.knownIds,
    `scripted-${uuid(rng)}`,
    'sap-orders',
    'nope',
    '0',
    '1',
    '-1',
    '99999999999999999999',
    '1e3',
    'NaN',
    'constructor',
    '__proto__',
    'prototype',
    '%00',
    'a%00b',
    '%ED%A0%80',
    '%C0%80',
    '%E2%80%AE',
    '%FF',
    '%25',
    '%20',
    'x%2Fy',
    'a'.repeat(300),
    uuid(rng).toUpperCase(),
  ]);
}

function queryString(rng: Rng, route: Route): string {
  if (!chance(rng, 0.4)) return '';
  const names = [...route.query, 'constructor', '__proto__', 'prototype', 'limit[]', 'a[b]', 'x'];
  const values = [
    '',
    '0',
    '1',
    '-1',
    '200',
    '201',
    '1e400',
    'NaN',
    'abc',
    'true',
    uuid(rng),
    '2026-01-01T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '2026-02-30T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-12-31T23:59:60Z',
    '2026-01-01T00:00:00+14:00',
    '2026-W01',
    '2026-001',
    'not-a-date',
    '%00',
    'computer_use.%00',
    '%ED%A0%80',
    '%C0%80',
    '%FF',
    'x'.repeat(int(rng, 3000)),
    'computer_use.',
    'eyJ4IjoxfQ',
    'queued',
    'sap-orders',
  ];
  const pairs = Array.from({ length: 1 + int(rng, 3) }, () => {
    const name = pick(rng, names);
    const value = pick(rng, values);
    return `${encodeURIComponent(name)}=${/%/.test(value) ? value : encodeURIComponent(value)}`;
  });
  return `?${pairs.join('&')}`;
}

export function randomRequest(
  rng: Rng,
  route: Route,
  doc: Schema,
  pool: RequestPool,
  token: string,
): RandomRequest {
  const path =
    route.path.replace(/\{[^}]+\}/g, () => pathParam(rng, pool)) + queryString(rng, route);
  const headers: Record<string, string> = {};
  const auth = int(rng, 40);
  if (auth > 1) headers.authorization = `Bearer ${token}`;
  else if (auth === 1) headers.authorization = 'Bearer not-a-token';
  if (chance(rng, 0.1))
    headers.accept = pick(rng, ['application/x-ndjson', 'text/html', '*/*', 'x']);

  const seeds = [
    ...(pool.examples[`${route.method} ${route.path}`] ?? []).map(fromPlain),
    ...(route.bodySchema ? [sampleOf(route.bodySchema, doc, rng)] : []),
  ];
  const seed = (): Json => (seeds.length > 0 ? clone(pick(rng, seeds)) : randomJson(rng));
  let kind: string;
  let body: Buffer | undefined;
  const roll = int(rng, 100);
  if (roll < 40) {
    kind = 'mutated';
    body = Buffer.from(toText(mutate(seed(), rng, 1 + int(rng, 4))));
  } else if (roll < 55) {
    kind = 'random';
    body = Buffer.from(toText(randomJson(rng)));
  } else if (roll < 63) {
    const depth = pick(rng, [33, 34, 100, 5_000, 60_000]);
    kind = `deep ${depth}`;
    const value = seed();
    const objects = objectsOf(value);
    if (objects.length > 0) pick(rng, objects).entries.push(['d', deep(rng, depth)]);
    body = Buffer.from(toText(objects.length > 0 ? value : deep(rng, depth)));
  } else if (roll < 70) {
    kind = 'refused key';
    const value = seed();
    const objects = objectsOf(value);
    const key = pick(rng, [...REFUSED]);
    if (objects.length > 0) pick(rng, objects).entries.push([key, randomJson(rng, 4)]);
    body = Buffer.from(toText(objects.length > 0 ? value : new Obj([[key, true]])));
  } else if (roll < 82) {
    const [name, bytes] = pick(rng, NOT_JSON(rng));
    kind = `not JSON: ${name}`;
    body = bytes;
  } else if (roll < 88) {
    kind = 'no body';
  } else {
    kind = 'scalar';
    body = Buffer.from(toText(scalar(rng)));
  }
  if (body !== undefined || chance(rng, 0.3)) {
    const type = chance(rng, 0.5) ? 'application/json' : pick(rng, CONTENT_TYPES);
    if (!chance(rng, 0.05)) headers['content-type'] = type;
  }
  return { method: route.method, path, headers, body, kind };
}

// ---- sweeps -------------------------------------------------------------------------------------

const WRONG_VALUES: Json[] = [
  null,
  true,
  new Raw('0'),
  new Raw('-1'),
  new Raw('1e400'),
  '',
  'x',
  '\u0007',
  [],
  new Obj([]),
  [new Obj([])],
  new Obj([['a', new Obj([])]]),
];

/**
 * Every body one change away from an example: each place holding each wrong value, and each object
 * given each odd key. Not random: what the random requests reach only by luck.
 */
export function* variantsOf(example: unknown): Generator<{ kind: string; body: Json }> {
  const original = fromPlain(example);
  const places = slotsOf({ value: clone(original) }).length;
  for (let i = 0; i < places; i++) {
    for (const wrong of WRONG_VALUES) {
      const root = { value: clone(original) };
      slotsOf(root)[i].set(wrong);
      yield { kind: `place ${i} = ${toText(wrong)}`, body: root.value };
    }
  }
  const objects = objectsOf(clone(original)).length;
  for (let i = 0; i < objects; i++) {
    for (const key of ODD_KEYS.filter((k) => !REFUSED.has(k))) {
      for (const value of [new Raw('1'), new Obj([])]) {
        const copy = clone(original);
        objectsOf(copy)[i].entries.push([key, value]);
        yield { kind: `object ${i} with key ${JSON.stringify(key.slice(0, 20))}`, body: copy };
      }
    }
  }
}
