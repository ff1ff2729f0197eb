import fc from 'fast-check';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('drops undefined members as JSON does', () => {
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  });

  it('gives one text for a value whatever its key order, and parses back to it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        const reparsed: unknown = JSON.parse(text);
        expect(canonicalJson(reparsed)).toBe(text);
        expect(canonicalJson(JSON.parse(JSON.stringify(value)))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});
