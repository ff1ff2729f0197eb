import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import {
  compareScreens,
  decodePng,
  type Decoded,
  learnVolatileMask,
  pixelSha256,
  pngPixelFacts,
  ScreenError,
  VolatileMask,
} from './pixels';

function encode(img: Decoded, options: object = {}): Buffer {
  const png = new PNG({ width: img.width, height: img.height });
  img.rgba.copy(png.data);
  return PNG.sync.write(png, { ...options });
}

function solid(width: number, height: number, rgba = [240, 240, 240, 255]): Decoded {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set(rgba, i);
  return { width, height, rgba: data };
}

function withPixel(img: Decoded, x: number, y: number, rgba: number[]): Decoded {
  const data = Buffer.from(img.rgba);
  data.set(rgba, (y * img.width + x) * 4);
  return { ...img, rgba: data };
}

/** A different colour for the pixel at (x, y) of img. */
function otherColour(img: Decoded, x: number, y: number): number[] {
  const i = (y * img.width + x) * 4;
  return [img.rgba[i] ^ 0x80, img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]];
}

/** img with each pixel of `indices` (y * width + x) set to another colour, in one copy. */
function blink(img: Decoded, indices: number[]): Decoded {
  const data = Buffer.from(img.rgba);
  for (const i of indices) data[i * 4] ^= 0x80;
  return { ...img, rgba: data };
}

/** Small opaque screens; opaque so that an RGB encoding keeps every pixel. */
const screen = fc
  .record({ width: fc.integer({ min: 1, max: 20 }), height: fc.integer({ min: 1, max: 20 }) })
  .chain(({ width, height }) =>
    fc
      .uint8Array({ minLength: width * height * 4, maxLength: width * height * 4 })
      .map((bytes): Decoded => {
        const rgba = Buffer.from(bytes);
        for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
        return { width, height, rgba };
      }),
  );

const pngOptions = fc.record({
  colorType: fc.constantFrom(2, 6),
  filterType: fc.constantFrom(-1, 0, 1, 2, 3, 4),
  deflateLevel: fc.integer({ min: 0, max: 9 }),
  deflateStrategy: fc.integer({ min: 0, max: 3 }),
});

describe('pixelSha256', () => {
  it('is SHA-256 over width and height (u32 big-endian) and the RGBA bytes', () => {
    const img = solid(2, 1, [255, 0, 0, 255]);
    const expected = createHash('sha256')
      .update(Buffer.from([0, 0, 0, 2, 0, 0, 0, 1, 255, 0, 0, 255, 255, 0, 0, 255]))
      .digest('hex');
    expect(pixelSha256(img)).toBe(expected);
    // The same bytes in another shape are another screen.
    expect(pixelSha256({ width: 1, height: 2, rgba: img.rgba })).not.toBe(expected);
  });

  it('is one hash for every PNG encoding of the same pixels', () => {
    fc.assert(
      fc.property(screen, pngOptions, pngOptions, (img, a, b) => {
        const pa = encode(img, a);
        const pb = encode(img, b);
        expect(pixelSha256(decodePng(pa))).toBe(pixelSha256(decodePng(pb)));
        expect(pixelSha256(decodePng(pa))).toBe(pixelSha256(img));
        // Hashed band by band, without the decoded image: the same hash and size.
        expect(pngPixelFacts(pb)).toEqual({
          width: img.width,
          height: img.height,
          pixelSha256: pixelSha256(img),
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('compareScreens', () => {
  it('calls equal PNG bytes the same without decoding them', () => {
    // Not a PNG at all: decoding would throw, so this proves no decode happened.
    const bytes = Buffer.from('not a png, but equal bytes');
    expect(compareScreens(bytes, Buffer.from(bytes))).toEqual({
      same: true,
      changedPixels: 0,
      why: 'identical PNG bytes',
    });
  });

  it('never calls a re-encoding of the same pixels a change', () => {
    fc.assert(
      fc.property(screen, pngOptions, pngOptions, (img, a, b) => {
        const result = compareScreens(encode(img, a), encode(img, b));
        expect(result.same).toBe(true);
        expect(result.changedPixels).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('always calls one changed pixel outside the volatile mask a change', () => {
    fc.assert(
      fc.property(
        screen.chain((img) =>
          fc.record({
            img: fc.constant(img),
            moving: fc.uniqueArray(fc.nat(img.width * img.height - 1), {
              maxLength: img.width * img.height - 1,
            }),
            changed: fc.nat(img.width * img.height - 1),
          }),
        ),
        pngOptions,
        ({ img, moving, changed }, options) => {
          fc.pre(!moving.includes(changed));
          // Samples in which the `moving` pixels blink.
          const blinked = blink(img, moving);
          const mask = learnVolatileMask([img, blinked, img]);
          expect(mask.size).toBe(moving.length);
          const x = changed % img.width;
          const y = Math.floor(changed / img.width);
          const fresh = withPixel(blinked, x, y, otherColour(img, x, y));
          const result = compareScreens(encode(img), encode(fresh, options), { mask });
          expect(result.same).toBe(false);
          expect(result.changedPixels).toBe(1);
          expect(result.why).toContain(`1 pixel changed at (${x}, ${y})`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never calls changes inside the volatile mask a change', () => {
    fc.assert(
      fc.property(
        screen.chain((img) =>
          fc.record({
            img: fc.constant(img),
            moving: fc.uniqueArray(fc.nat(img.width * img.height - 1), { minLength: 1 }),
            pick: fc.array(fc.boolean(), { minLength: 400, maxLength: 400 }),
            seed: fc.integer({ min: 1, max: 255 }),
          }),
        ),
        pngOptions,
        ({ img, moving, pick, seed }, options) => {
          const blinked = blink(img, moving);
          const mask = learnVolatileMask([img, blinked]);
          // Any subset of the masked pixels, to any colour.
          let fresh = img;
          moving.forEach((i, n) => {
            if (pick[n % pick.length]) {
              fresh = withPixel(fresh, i % img.width, Math.floor(i / img.width), [
                seed,
                255 - seed,
                n & 255,
                255,
              ]);
            }
          });
          const result = compareScreens(encode(img), encode(fresh, options), { mask });
          expect(result.same).toBe(true);
          expect(result.changedPixels).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('says how many pixels changed and where', () => {
    const held = solid(100, 50);
    let fresh = withPixel(held, 10, 20, [0, 0, 0, 255]);
    fresh = withPixel(fresh, 30, 5, [0, 0, 0, 255]);
    expect(compareScreens(encode(held), encode(fresh))).toEqual({
      same: false,
      changedPixels: 2,
      why: '2 pixels changed between (10, 5) and (30, 20)',
    });
  });

  it('calls a change of size a change', () => {
    expect(compareScreens(encode(solid(4, 3)), encode(solid(3, 4)))).toEqual({
      same: false,
      changedPixels: 12,
      why: "the screen's size changed from 4x3 to 3x4",
    });
  });

  it('leaves out the ignore regions, in the PNG pixels or scaled from the coordinate space', () => {
    const held = solid(200, 100);
    // A clock at (150..170, 2..10) in PNG pixels, (75..85, 1..5) in a half-size coordinate space.
    const fresh = withPixel(withPixel(held, 150, 2, [1, 2, 3, 255]), 169, 9, [1, 2, 3, 255]);
    const [heldPng, freshPng] = [encode(held), encode(fresh)];
    expect(compareScreens(heldPng, freshPng).same).toBe(false);
    const ignored = compareScreens(heldPng, freshPng, {
      ignoreRegions: [{ x: 150, y: 2, width: 20, height: 8 }],
    });
    expect(ignored).toEqual({
      same: true,
      changedPixels: 0,
      why: 'same pixels outside 1 ignore region; 2 pixels changed inside',
    });
    const scaled = compareScreens(heldPng, freshPng, {
      ignoreRegions: [{ x: 75, y: 1, width: 10, height: 4 }],
      regionSpace: { width: 100, height: 50 },
    });
    expect(scaled.same).toBe(true);
    // A region that misses the change by one pixel does not hide it.
    const missed = compareScreens(heldPng, freshPng, {
      ignoreRegions: [{ x: 151, y: 2, width: 20, height: 8 }],
    });
    expect(missed).toMatchObject({ same: false, changedPixels: 1 });
    expect(missed.why).toBe('1 pixel changed at (150, 2), outside 1 ignore region');
  });

  it('takes decoded screens as well as PNGs', () => {
    const held = solid(8, 8);
    expect(compareScreens(held, encode(held)).same).toBe(true);
    expect(compareScreens(held, withPixel(held, 7, 7, [0, 0, 0, 0])).changedPixels).toBe(1);
  });

  it('refuses a mask of another size, and regions that are not rectangles', () => {
    const held = encode(solid(4, 4));
    const fresh = encode(withPixel(solid(4, 4), 0, 0, [0, 0, 0, 255]));
    expect(() => compareScreens(held, fresh, { mask: VolatileMask.empty(5, 4) })).toThrow(
      new ScreenError('the volatile mask is for a 5x4 screen, the held screen is 4x4'),
    );
    expect(() =>
      compareScreens(held, fresh, { ignoreRegions: [{ x: 0, y: 0, width: -1, height: 2 }] }),
    ).toThrow('ignore region 0 is not a rectangle {x, y, width, height}');
  });

  it('refuses a fresh screenshot that is not a PNG with a ScreenError', () => {
    expect(() => compareScreens(encode(solid(2, 2)), Buffer.from('garbage'))).toThrow(ScreenError);
  });
});

describe('learnVolatileMask', () => {
  it('keeps exactly the pixels that moved among the samples (a blinking caret)', () => {
    const base = solid(40, 20);
    let caret = base;
    for (let y = 5; y < 15; y++) caret = withPixel(caret, 12, y, [0, 0, 0, 255]);
    const mask = learnVolatileMask([base, caret, base, caret]);
    expect(mask.size).toBe(10);
    expect(mask.has(12, 5)).toBe(true);
    expect(mask.has(12, 14)).toBe(true);
    expect(mask.has(12, 15)).toBe(false);
    expect(mask.has(13, 10)).toBe(false);
  });

  it('is empty for one sample or unchanging samples', () => {
    const base = solid(3, 3);
    expect(learnVolatileMask([base]).size).toBe(0);
    expect(learnVolatileMask([base, solid(3, 3), base]).size).toBe(0);
  });

  it('grows by a margin when asked', () => {
    const base = solid(10, 10);
    const mask = learnVolatileMask([base, withPixel(base, 5, 5, [0, 0, 0, 255])], { margin: 1 });
    expect(mask.size).toBe(9);
    expect(mask.has(4, 4) && mask.has(6, 6)).toBe(true);
    const corner = learnVolatileMask([base, withPixel(base, 0, 0, [0, 0, 0, 255])], { margin: 2 });
    expect(corner.size).toBe(9);
  });

  it('refuses no samples and samples of different sizes', () => {
    expect(() => learnVolatileMask([])).toThrow(ScreenError);
    expect(() => learnVolatileMask([solid(3, 3), solid(3, 4)])).toThrow(
      /the samples differ in size \(3x3 and 3x4\)/,
    );
  });

  it('works on pixel buffers that are not 4-byte aligned', () => {
    const base = solid(3, 1);
    const backing = Buffer.alloc(base.rgba.length + 1);
    base.rgba.copy(backing, 1);
    const odd = { ...base, rgba: backing.subarray(1) };
    const moved = withPixel(base, 2, 0, [0, 0, 0, 255]);
    expect(learnVolatileMask([odd, moved]).has(2, 0)).toBe(true);
  });
});
