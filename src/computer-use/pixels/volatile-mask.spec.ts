import fc from 'fast-check';
import { ScreenError } from './screen-error';
import { fillBits, VolatileMask } from './volatile-mask';

function maskOf(width: number, height: number, pixels: number[]): VolatileMask {
  const bits = new Uint8Array(Math.ceil((width * height) / 8));
  for (const i of pixels) fillBits(bits, i, i + 1);
  return VolatileMask.fromBits(width, height, bits);
}

const masks = fc
  .record({ width: fc.integer({ min: 1, max: 64 }), height: fc.integer({ min: 1, max: 64 }) })
  .chain(({ width, height }) =>
    fc.record({
      width: fc.constant(width),
      height: fc.constant(height),
      pixels: fc.uniqueArray(fc.nat(width * height - 1), { maxLength: 300 }),
    }),
  );

describe('VolatileMask', () => {
  it('serialises to a buffer and back to the same pixels', () => {
    fc.assert(
      fc.property(masks, ({ width, height, pixels }) => {
        const mask = maskOf(width, height, pixels);
        expect(mask.size).toBe(pixels.length);
        const back = VolatileMask.fromBuffer(mask.toBuffer());
        expect(back.width).toBe(width);
        expect(back.height).toBe(height);
        expect(back.size).toBe(pixels.length);
        expect(Buffer.from(back.bits).equals(Buffer.from(mask.bits))).toBe(true);
        expect(back.toBuffer().equals(mask.toBuffer())).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('is compact: an empty 1280x800 mask is 9 bytes, a caret a few dozen', () => {
    expect(VolatileMask.empty(1280, 800).toBuffer()).toHaveLength(9);
    const caret: number[] = [];
    for (let y = 300; y < 318; y++) caret.push(y * 1280 + 400, y * 1280 + 401);
    const buffer = maskOf(1280, 800, caret).toBuffer();
    expect(buffer.length).toBeLessThan(80);
    expect(VolatileMask.fromBuffer(buffer).has(401, 317)).toBe(true);
    // A full screen is one run.
    const full = VolatileMask.fromBits(4, 4, new Uint8Array([0xff, 0xff]));
    expect(full.size).toBe(16);
    expect(full.toBuffer()).toHaveLength(9);
  });

  it('refuses anything that is not a mask it wrote, with a ScreenError and nothing else', () => {
    expect(() => VolatileMask.fromBuffer(Buffer.from('hello'))).toThrow(
      "the volatile mask is not in Warden's mask format (version 1)",
    );
    const good = maskOf(10, 10, [1, 2, 3, 50, 99]).toBuffer();
    expect(() => VolatileMask.fromBuffer(good.subarray(0, good.length - 1))).toThrow(
      'the volatile mask is cut off',
    );
    expect(() => VolatileMask.fromBuffer(Buffer.concat([good, Buffer.from([0])]))).toThrow(
      /bytes after its last run/,
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 60 }), fc.boolean(), (bytes, withMagic) => {
        const data = withMagic
          ? Buffer.concat([Buffer.from('WVM\x01', 'latin1'), Buffer.from(bytes)])
          : Buffer.from(bytes);
        try {
          const mask = VolatileMask.fromBuffer(data);
          expect(mask.size).toBeLessThanOrEqual(mask.width * mask.height);
        } catch (error) {
          expect(error).toBeInstanceOf(ScreenError);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses impossible sizes', () => {
    expect(() => VolatileMask.empty(0, 10)).toThrow(ScreenError);
    expect(() => VolatileMask.empty(8193, 1)).toThrow(ScreenError);
    expect(() => VolatileMask.empty(8192, 8192)).toThrow(ScreenError);
  });

  it('answers has() for points outside the screen with false', () => {
    const mask = maskOf(3, 3, [0, 8]);
    expect(mask.has(0, 0)).toBe(true);
    expect(mask.has(2, 2)).toBe(true);
    expect(mask.has(-1, 0)).toBe(false);
    expect(mask.has(3, 0)).toBe(false);
  });
});
