import { frameSha256, type FrameRect } from '@warden/protocol';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import {
  FRAMES_KEPT,
  frameOfPng,
  framesMatch,
  FrameStore,
  OpaqueFrames,
  opaqueRgba,
  rawFrame,
  type RawFrame,
} from './frames';
import { encodeScreenPng, type PixelLayout } from '@warden/protocol';

/** What Warden computes from a PNG: decode (pngjs, as Warden's own decoder agrees), then hash. */
function warden(png: Buffer): string {
  const decoded = PNG.sync.read(png);
  return frameSha256(decoded.width, decoded.height, decoded.data);
}

const size = fc.record({
  width: fc.integer({ min: 1, max: 16 }),
  height: fc.integer({ min: 1, max: 16 }),
});
const pixels = size.chain(({ width, height }) =>
  fc
    .uint8Array({ minLength: width * height * 4, maxLength: width * height * 4 })
    .map((bytes) => ({ width, height, bytes })),
);

function frameFrom(width: number, height: number, fill: (i: number) => number): RawFrame {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < rgba.length; i++) rgba[i] = i % 4 === 3 ? 255 : fill(i);
  return rawFrame(width, height, rgba);
}

describe('rawFrame', () => {
  it('carries the frame hash of its pixels', () => {
    const rgba = new Uint8Array([1, 2, 3, 255, 4, 5, 6, 255]);
    expect(rawFrame(2, 1, rgba)).toEqual({
      width: 2,
      height: 1,
      rgba,
      sha256: frameSha256(2, 1, rgba),
    });
  });
});

describe('frameOfPng (backends without pixels: windows)', () => {
  it('hashes what Warden decodes: RGB, RGBA with alpha, 16-bit, grey, palette', () => {
    const cases: Array<{ colorType: 0 | 2 | 4 | 6; bitDepth: 8 | 16; inputHasAlpha: boolean }> = [
      { colorType: 2, bitDepth: 8, inputHasAlpha: true },
      { colorType: 6, bitDepth: 8, inputHasAlpha: true },
      { colorType: 6, bitDepth: 16, inputHasAlpha: true },
      { colorType: 0, bitDepth: 8, inputHasAlpha: true },
      { colorType: 4, bitDepth: 8, inputHasAlpha: true },
    ];
    for (const options of cases) {
      const image = new PNG({ width: 5, height: 3, ...options });
      for (let i = 0; i < image.data.length; i++) image.data[i] = (i * 37) & 0xff;
      const png = PNG.sync.write(image, options);
      const frame = frameOfPng(png);
      expect([frame.width, frame.height, frame.rgba.length]).toEqual([5, 3, 60]);
      expect(frame.sha256).toBe(warden(png));
    }
  });

  it("hashes the screen host encoder's PNG as Warden does (property)", () => {
    fc.assert(
      fc.property(pixels, ({ width, height, bytes }) => {
        const png = encodeScreenPng(bytes, width, height);
        expect(frameOfPng(png).sha256).toBe(warden(png));
      }),
      { numRuns: 100 },
    );
  });

  it('refuses what is not a PNG, a PNG that does not decode, and a huge one', () => {
    expect(() => frameOfPng(Buffer.from('not a png at all, really not'))).toThrow(/not a PNG/);
    const png = encodeScreenPng(new Uint8Array(64 * 4).fill(9), 8, 8);
    const damaged = Buffer.from(png);
    damaged[damaged.length - 20] ^= 0xff; // inside the IDAT: its CRC fails
    expect(() => frameOfPng(damaged)).toThrow(/does not decode/);
    const huge = Buffer.from(png);
    huge.writeUInt32BE(50_000, 16);
    huge.writeUInt32BE(50_000, 20);
    expect(() => frameOfPng(huge)).toThrow(/too large/);
  });
});

describe('OpaqueFrames (x11: 32-bit pixels that are not RGBA)', () => {
  it.each<PixelLayout>(['bgrx', 'xrgb'])(
    '%s: the frame hash is the one of the PNG the encoder writes (property)',
    (layout) => {
      fc.assert(
        fc.property(pixels, fc.boolean(), ({ width, height, bytes }, unaligned) => {
          // An unaligned view takes the byte-by-byte path.
          const source = unaligned ? new Uint8Array(bytes.length + 1).subarray(1) : bytes;
          source.set(bytes);
          const frame = new OpaqueFrames().frameOf(source, width, height, layout);
          expect(frame.sha256).toBe(warden(encodeScreenPng(bytes, width, height, layout)));
          for (let i = 3; i < frame.rgba.length; i += 4) expect(frame.rgba[i]).toBe(255);
        }),
        { numRuns: 100 },
      );
    },
  );

  it('moves the channels of one pixel', () => {
    expect([...opaqueRgba(new Uint8Array([1, 2, 3, 4]), 'bgrx')]).toEqual([3, 2, 1, 255]);
    expect([...opaqueRgba(new Uint8Array([4, 1, 2, 3]), 'xrgb')]).toEqual([1, 2, 3, 255]);
    expect([...opaqueRgba(new Uint8Array([1, 2, 3, 4]), 'rgba')]).toEqual([1, 2, 3, 255]);
  });

  it('gives the same frame back for the same pixels, and a new one when they change', () => {
    const frames = new OpaqueFrames();
    const a = new Uint8Array(16).fill(7);
    const first = frames.frameOf(a, 2, 2, 'bgrx');
    expect(frames.frameOf(Uint8Array.from(a), 2, 2, 'bgrx')).toBe(first);
    expect(frames.frameOf(Uint8Array.from(a), 1, 4, 'bgrx')).not.toBe(first);
    const b = Uint8Array.from(a);
    b[0] = 8;
    expect(frames.frameOf(b, 1, 4, 'bgrx').sha256).not.toBe(first.sha256);
    expect(() => frames.frameOf(new Uint8Array(15), 2, 2, 'bgrx')).toThrow(/not 2x2/);
  });
});

/** framesMatch written the slow, obvious way: every pixel, is it in a rectangle? */
function naiveMatch(a: RawFrame, b: RawFrame, ignore: FrameRect[]): boolean {
  if (a.width !== b.width || a.height !== b.height) return false;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const left = ignore.some(
        (r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height,
      );
      if (left) continue;
      for (let c = 0; c < 4; c++) {
        const i = (y * a.width + x) * 4 + c;
        if (a.rgba[i] !== b.rgba[i]) return false;
      }
    }
  }
  return true;
}

describe('framesMatch', () => {
  const base = frameFrom(20, 10, (i) => i & 0xff);
  const changedAt = (x: number, y: number) => {
    const rgba = Uint8Array.from(base.rgba);
    rgba[(y * 20 + x) * 4] ^= 0x80;
    return rawFrame(20, 10, rgba);
  };

  it('equal frames match; a changed pixel does not, unless it is left out', () => {
    expect(framesMatch(base, rawFrame(20, 10, Uint8Array.from(base.rgba)))).toBe(true);
    const changed = changedAt(5, 5);
    expect(framesMatch(base, changed)).toBe(false);
    expect(framesMatch(base, changed, [{ x: 5, y: 5, width: 1, height: 1 }])).toBe(true);
    expect(framesMatch(base, changed, [{ x: 6, y: 5, width: 3, height: 3 }])).toBe(false);
    expect(framesMatch(base, changed, [{ x: 0, y: 0, width: 20, height: 10 }])).toBe(true);
  });

  it('a different size is a change, whatever is left out', () => {
    const other = frameFrom(10, 20, (i) => i & 0xff);
    expect(framesMatch(base, other, [{ x: 0, y: 0, width: 100, height: 100 }])).toBe(false);
  });

  it('rectangles reaching past the frame leave out only what is in it', () => {
    expect(framesMatch(base, changedAt(19, 9), [{ x: 19, y: 9, width: 500, height: 500 }])).toBe(
      true,
    );
    expect(framesMatch(base, changedAt(0, 0), [{ x: 20, y: 0, width: 5, height: 5 }])).toBe(false);
  });

  it('agrees with comparing pixel by pixel (property)', () => {
    const rect = fc.record({
      x: fc.integer({ min: 0, max: 25 }),
      y: fc.integer({ min: 0, max: 15 }),
      width: fc.integer({ min: 1, max: 12 }),
      height: fc.integer({ min: 1, max: 12 }),
    });
    const spot = fc.record({ x: fc.nat({ max: 19 }), y: fc.nat({ max: 9 }) });
    fc.assert(
      fc.property(
        fc.array(rect, { maxLength: 6 }),
        fc.array(spot, { maxLength: 4 }),
        (ignore, spots) => {
          const rgba = Uint8Array.from(base.rgba);
          for (const s of spots) rgba[(s.y * 20 + s.x) * 4 + 1] ^= 0x55;
          const now = rawFrame(20, 10, rgba);
          expect(framesMatch(base, now, ignore)).toBe(naiveMatch(base, now, ignore));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('FrameStore', () => {
  const frame = (n: number, bytes = 16) => rawFrame(bytes / 4, 1, new Uint8Array(bytes).fill(n));

  it(`keeps the last ${FRAMES_KEPT} frames served, by hash`, () => {
    const store = new FrameStore();
    const frames = [1, 2, 3, 4, 5].map((n) => frame(n));
    frames.forEach((f) => store.remember(f));
    expect(store.get(frames[0].sha256)).toBeUndefined();
    expect(frames.slice(1).every((f) => store.get(f.sha256) === f)).toBe(true);
    expect(store.size).toBe(4);
  });

  it('a frame served again is the newest, and takes no second place', () => {
    const store = new FrameStore(2);
    const [a, b, c] = [1, 2, 3].map((n) => frame(n));
    store.remember(a);
    store.remember(b);
    store.remember(rawFrame(a.width, a.height, Uint8Array.from(a.rgba))); // a again, another copy
    store.remember(c);
    expect(store.get(a.sha256)).toBe(a);
    expect(store.get(b.sha256)).toBeUndefined();
    expect(store.size).toBe(2);
  });

  it('is bounded in bytes too, and keeps no frame larger than the bound', () => {
    const store = new FrameStore(4, 40);
    store.remember(frame(1, 16));
    store.remember(frame(2, 16));
    store.remember(frame(3, 16));
    expect(store.size).toBe(2);
    expect(store.byteSize).toBe(32);
    const big = frame(4, 44);
    store.remember(big);
    expect(store.get(big.sha256)).toBeUndefined();
    expect(store.size).toBe(2);
  });
});
