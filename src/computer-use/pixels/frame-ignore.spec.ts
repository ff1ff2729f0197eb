import { frameIgnore, maskRects, MAX_IGNORE_RECTS } from './frame-ignore';
import { VolatileMask } from './volatile-mask';

/** A mask of `width` x `height` with the given pixels set. */
function mask(width: number, height: number, pixels: Array<[number, number]>): VolatileMask {
  const bits = new Uint8Array(Math.ceil((width * height) / 8));
  for (const [x, y] of pixels) bits[(y * width + x) >> 3] |= 1 << ((y * width + x) & 7);
  return VolatileMask.fromBits(width, height, bits);
}

/** Every pixel the rectangles cover. */
function covered(rects: Array<{ x: number; y: number; width: number; height: number }>) {
  const out = new Set<string>();
  for (const r of rects) {
    for (let y = r.y; y < r.y + r.height; y++) {
      for (let x = r.x; x < r.x + r.width; x++) out.add(`${x},${y}`);
    }
  }
  return out;
}

describe('the frame pixels a host leaves out', () => {
  it('covers a caret (a vertical bar) with one rectangle, and exactly its pixels', () => {
    const caret = Array.from({ length: 14 }, (_, i) => [120, 40 + i] as [number, number]);
    const rects = maskRects(mask(200, 100, caret))!;
    expect(rects).toEqual([{ x: 120, y: 40, width: 1, height: 14 }]);
  });

  it('covers exactly the masked pixels of any mask, in as many rectangles as it needs', () => {
    const pixels: Array<[number, number]> = [];
    for (let i = 0; i < 300; i++) pixels.push([(i * 37) % 64, (i * 11) % 48]);
    const m = mask(64, 48, pixels);
    const rects = maskRects(m, 10_000)!;
    expect(covered(rects)).toEqual(new Set(pixels.map(([x, y]) => `${x},${y}`)));
  });

  it('gives up on a mask too scattered for the host (null), and frameIgnore leaves it out', () => {
    const dots: Array<[number, number]> = [];
    for (let y = 0; y < 40; y += 2) for (let x = 0; x < 40; x += 2) dots.push([x, y]);
    const m = mask(40, 40, dots);
    expect(maskRects(m)).toBeNull();
    const region = { x: 0, y: 0, width: 10, height: 5 };
    expect(frameIgnore({ width: 40, height: 40 }, m, [region], { width: 40, height: 40 })).toEqual([
      region,
    ]);
  });

  it('scales ignore regions from the host coordinate space to the frame, covering the edges', () => {
    const rects = frameIgnore(
      { width: 2560, height: 1600 },
      null,
      [{ x: 10, y: 10, width: 5, height: 5 }],
      { width: 1280, height: 800 },
    );
    expect(rects).toEqual([{ x: 20, y: 20, width: 10, height: 10 }]);
  });

  it('leaves out a mask of another size than the frame', () => {
    const m = mask(100, 100, [[1, 1]]);
    expect(frameIgnore({ width: 200, height: 100 }, m, [], { width: 200, height: 100 })).toEqual(
      [],
    );
    expect(frameIgnore({ width: 100, height: 100 }, m, [], { width: 100, height: 100 })).toEqual([
      { x: 1, y: 1, width: 1, height: 1 },
    ]);
    expect(MAX_IGNORE_RECTS).toBe(256);
  });
});
