import fc from 'fast-check';
import { PNG } from 'pngjs';
import { encodeScreenPng } from './png';

function rgbOf(decoded: PNG): number[] {
  const out: number[] = [];
  for (let i = 0; i < decoded.data.length; i += 4)
    out.push(decoded.data[i], decoded.data[i + 1], decoded.data[i + 2]);
  return out;
}

describe('encodeScreenPng', () => {
  it('round-trips any pixels through a standard decoder (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        fc.integer(),
        (width, height, flat, seed) => {
          const rgba = new Uint8Array(width * height * 4);
          for (let i = 0; i < rgba.length; i++)
            rgba[i] = flat ? (i % 4 === 3 ? 255 : 200) : (seed * (i + 7) * 2654435761) >>> 24;
          const decoded = PNG.sync.read(encodeScreenPng(rgba, width, height));
          expect([decoded.width, decoded.height]).toEqual([width, height]);
          const expected: number[] = [];
          for (let i = 0; i < rgba.length; i += 4) expected.push(rgba[i], rgba[i + 1], rgba[i + 2]);
          expect(rgbOf(decoded)).toEqual(expected);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('gives the same bytes for the same pixels', () => {
    const rgba = new Uint8Array(64 * 32 * 4).map((_, i) => (i * 31) & 0xff);
    expect(encodeScreenPng(rgba, 64, 32).equals(encodeScreenPng(rgba.slice(), 64, 32))).toBe(true);
  });

  it('refuses a buffer of the wrong size', () => {
    expect(() => encodeScreenPng(new Uint8Array(10), 2, 2)).toThrow();
  });
});
