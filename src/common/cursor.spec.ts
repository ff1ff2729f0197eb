import fc from 'fast-check';
import { DomainError } from './domain-error';
import { decodeCursor, encodeCursor } from './cursor';

describe('cursor', () => {
  it('round-trips a position', () => {
    const position = ['2026-11-30T01:02:03.456Z', '7b0c6d3e-2f4a-4c1e-9a8b-1d2e3f4a5b6c'];
    expect(decodeCursor(encodeCursor(position), 'tu')).toEqual(position);
    expect(decodeCursor(encodeCursor([42]), 'n')).toEqual([42]);
    const micro = ['2026-11-30T01:02:03.456789Z', '7b0c6d3e-2f4a-4c1e-9a8b-1d2e3f4a5b6c'];
    expect(decodeCursor(encodeCursor(micro), 'tu')).toEqual(micro);
  });

  it.each([
    ['not base64 json', 'tu'],
    [encodeCursor(['garbage', '7b0c6d3e-2f4a-4c1e-9a8b-1d2e3f4a5b6c']), 'tu'],
    [encodeCursor(['2026-11-30T01:02:03.456Z', "x' OR 1=1"]), 'tu'],
    [encodeCursor(['2026-11-30T01:02:03.4567Z', '7b0c6d3e-2f4a-4c1e-9a8b-1d2e3f4a5b6c']), 'tu'],
    [encodeCursor([1.5]), 'n'],
    [encodeCursor([-1]), 'n'],
    [encodeCursor([1, 2]), 'n'],
  ])('refuses %s as %s with a 400', (cursor, shape) => {
    expect(() => decodeCursor(cursor, shape)).toThrow(DomainError);
    expect(() => decodeCursor(cursor, shape)).toThrow('cursor is not one this API gave out');
  });

  it('never throws anything but the 400 on any text', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('n', 'tu'), (text, shape) => {
        try {
          decodeCursor(text, shape);
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
