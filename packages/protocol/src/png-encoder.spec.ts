import fc from 'fast-check';
import { PNG } from 'pngjs';
import { encodeScreenPng, ScreenPngEncoder } from './png-encoder';

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

  it('reads BGRX and XRGB pixels (X11 ZPixmap) as the same colours', () => {
    const rgba = Uint8Array.from([10, 20, 30, 255, 40, 50, 60, 255]);
    const bgrx = Uint8Array.from([30, 20, 10, 0, 60, 50, 40, 0]);
    const xrgb = Uint8Array.from([0, 10, 20, 30, 0, 40, 50, 60]);
    const expected = encodeScreenPng(rgba, 2, 1);
    expect(encodeScreenPng(bgrx, 2, 1, 'bgrx').equals(expected)).toBe(true);
    expect(encodeScreenPng(xrgb, 2, 1, 'xrgb').equals(expected)).toBe(true);
  });

  it('a frame encoded after another is byte for byte what a fresh encoder gives (property)', () => {
    const width = 6;
    const height = 8;
    const frame = fc.uint8Array({ minLength: width * height * 4, maxLength: width * height * 4 });
    // Frames that share most rows, as screenshots do: each next frame changes a few rows.
    const edits = fc.array(fc.record({ row: fc.nat(height - 1), value: fc.nat(255) }), {
      maxLength: 3,
    });
    fc.assert(
      fc.property(frame, fc.array(edits, { minLength: 1, maxLength: 4 }), (first, changes) => {
        const encoder = new ScreenPngEncoder();
        let current = Uint8Array.from(first);
        expect(
          encoder.encode(current, width, height).equals(encodeScreenPng(current, width, height)),
        ).toBe(true);
        for (const change of changes) {
          const next = Uint8Array.from(current);
          for (const { row, value } of change)
            next.fill(value, row * width * 4, (row + 1) * width * 4);
          expect(
            encoder.encode(next, width, height).equals(encodeScreenPng(next, width, height)),
          ).toBe(true);
          current = next;
        }
        // A different size starts afresh.
        const small = Uint8Array.from(first.subarray(0, width * 4));
        expect(encoder.encode(small, width, 1).equals(encodeScreenPng(small, width, 1))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
