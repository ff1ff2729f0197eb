import fc from 'fast-check';
import { DomainError } from '../common/domain-error';
import { checkJsonBody, MAX_BODY_DEPTH, readJsonBody, REFUSED_KEYS } from './json-body';

/** An array nesting `depth` levels: [[[0]]] is 3. */
const nested = (depth: number): unknown => {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe('readJsonBody', () => {
  it('parses JSON', () => {
    expect(readJsonBody('{"agent": "sap-orders"}', { lenient: false })).toEqual({
      agent: 'sap-orders',
    });
    expect(readJsonBody('[1, "x", null]', { lenient: true })).toEqual([1, 'x', null]);
  });

  it('reads an empty body as none only when lenient (a bearer token, any content type)', () => {
    expect(readJsonBody('', { lenient: true })).toBeUndefined();
    expect(() => readJsonBody('', { lenient: false })).toThrow(
      'the request body is empty: send the body as JSON (Content-Type: application/json)',
    );
  });

  it.each(['agent=sap-orders&goal=x', '{"a": 1,', "{'a': 1}", 'NaN', ' '])(
    'refuses %j with a 400 that says to send JSON',
    (text) => {
      const error = catchError(() => readJsonBody(text, { lenient: true }));
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: 'invalid' });
      expect(error.message).toMatch(
        /^the request body is not valid JSON \(.+\): send the body as JSON \(Content-Type: application\/json\)$/,
      );
    },
  );

  it('refuses what checkJsonBody refuses, as a 400', () => {
    expect(() => readJsonBody('{"a": {"__proto__": {"x": 1}}}', { lenient: true })).toThrow(
      'the body has a key named "__proto__" at a.__proto__: keys named __proto__, constructor, prototype are refused',
    );
  });

  it('never changes a prototype: JSON.parse makes __proto__ an own key, then it is refused', () => {
    expect(() => readJsonBody('{"__proto__": {"polluted": true}}', { lenient: true })).toThrow(
      /__proto__/,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('checkJsonBody', () => {
  it.each([1, 'x', null, true, {}, [], { a: [1, { b: 'c' }] }])('takes %j', (value) => {
    expect(checkJsonBody(value)).toBeNull();
  });

  it(`takes ${MAX_BODY_DEPTH} levels and refuses ${MAX_BODY_DEPTH + 1}, saying where`, () => {
    expect(checkJsonBody(nested(MAX_BODY_DEPTH))).toBeNull();
    expect(checkJsonBody({ steps: nested(MAX_BODY_DEPTH) })).toMatch(
      /^the body nests deeper than 32 levels \(at steps(\[0\]){31}\)$/,
    );
  });

  it('checks a body as deep as the body limit allows without recursion', () => {
    const text = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
    expect(checkJsonBody(JSON.parse(text))).toMatch(/^the body nests deeper than 32 levels/);
  });

  it.each([
    [
      { enabled: true, agents: { a: { planner: { constructor: 1 } } } },
      'agents.a.planner.constructor',
    ],
    [{ steps: [{ action: { prototype: {} } }] }, 'steps[0].action.prototype'],
    [JSON.parse('[{"x": {"__proto__": 1}}]'), '[0].x.__proto__'],
    [{ agents: { 'sap orders': { constructor: 1 } } }, 'agents["sap orders"].constructor'],
  ])('refuses %j naming the path %s', (value, path) => {
    expect(checkJsonBody(value)).toMatch(new RegExp(` at ${escape(path)}: keys named`));
  });

  it('takes such names as values, and keys that only contain them', () => {
    expect(
      checkJsonBody({ name: 'constructor', constructors: 1, __proto: ['prototype'] }),
    ).toBeNull();
  });

  it.each([
    [{ goal: 'a\u0000b' }, 'goal'],
    [{ steps: [{ text: '\ud800' }] }, 'steps[0].text'],
    [{ a: ['ok', 'x\udfffy'] }, 'a[1]'],
    [{ 'k\u0000': 1 }, '["k\\u0000"]'],
  ])('refuses %j: a string PostgreSQL cannot store, at %s', (value, path) => {
    expect(checkJsonBody(value)).toMatch(new RegExp(` at ${escape(path)} with a NUL character`));
  });

  it('takes every character that is text, pairs of surrogates (emoji) included', () => {
    expect(checkJsonBody({ goal: 'Grüße 😀 \u0007\u001b[31m \u202e' })).toBeNull();
  });

  it('refuses exactly the bodies that are too deep, have a refused key, a NUL or a lone surrogate', () => {
    fc.assert(
      fc.property(
        // 'binary' strings hold NULs and lone surrogates; the wrapping reaches past the limit.
        fc.jsonValue({ maxDepth: 6, stringUnit: 'binary' }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom(...REFUSED_KEYS, 'name', 'agents'),
        fc.string({
          unit: fc.constantFrom('a', '\u0000', '\ud800', '\udc00', '😀', '\u0007'),
          maxLength: 3,
        }),
        (inner, wraps, key, text) => {
          const odd = JSON.stringify(text);
          let value: unknown = JSON.parse(`[${JSON.stringify(inner)}, {"${key}": ${odd}}]`);
          for (let i = 0; i < wraps; i++) value = { steps: value };
          expect(checkJsonBody(value) === null).toBe(
            depthOf(value) <= MAX_BODY_DEPTH && !hasRefused(value) && !hasUnstorable(value),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});

function catchError(f: () => unknown): Error {
  try {
    f();
  } catch (error) {
    return error as Error;
  }
  throw new Error('did not throw');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

function hasRefused(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasRefused);
  return Object.entries(value).some(([k, v]) => REFUSED_KEYS.includes(k) || hasRefused(v));
}

function hasUnstorable(value: unknown): boolean {
  // UTF-8 has no unpaired surrogates: encoding replaces them.
  const bad = (s: string) => s.includes('\u0000') || Buffer.from(s).toString() !== s;
  if (typeof value === 'string') return bad(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasUnstorable);
  return Object.entries(value).some(([k, v]) => bad(k) || hasUnstorable(v));
}
