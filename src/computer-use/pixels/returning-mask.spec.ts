import type { Decoded } from './png-decoder';
import { learnReturningMask } from './returning-mask';
import { ScreenError } from './screen-error';

function solid(width: number, height: number): Decoded {
  return { width, height, rgba: Buffer.alloc(width * height * 4, 0xf0) };
}

/** `img` with the pixels at `points` in another colour. */
function changed(img: Decoded, points: Array<[number, number]>): Decoded {
  const rgba = Buffer.from(img.rgba);
  for (const [x, y] of points) rgba[(y * img.width + x) * 4] ^= 0x80;
  return { ...img, rgba };
}

describe('the mask of a held write: pixels that left the held screen and came back', () => {
  const held = solid(8, 4);
  const caret: Array<[number, number]> = [
    [2, 1],
    [2, 2],
  ];
  const message: Array<[number, number]> = [
    [5, 3],
    [6, 3],
    [7, 3],
  ];

  it('keeps a blinking caret, in whichever state the write was held', () => {
    const on = changed(held, caret);
    expect(learnReturningMask(held, [on, held, on]).size).toBe(2);
    expect(learnReturningMask(on, [held, on]).size).toBe(2);
    const mask = learnReturningMask(held, [on, held]);
    expect(caret.every(([x, y]) => mask.has(x, y))).toBe(true);
  });

  it('leaves out a change that stayed, even beside a blinking caret', () => {
    const on = changed(held, caret);
    const shown = changed(held, message);
    const both = changed(on, message);
    // The caret blinks, and a message appears half way and stays.
    const mask = learnReturningMask(held, [on, held, both, shown, both]);
    expect(mask.size).toBe(2);
    expect(message.some(([x, y]) => mask.has(x, y))).toBe(false);
    // A change that was there in every sample: nothing moved by itself.
    expect(learnReturningMask(held, [shown, shown]).size).toBe(0);
  });

  it('is empty when the screen stood still, and refuses samples of another size', () => {
    expect(learnReturningMask(held, [held, held]).size).toBe(0);
    expect(() => learnReturningMask(held, [solid(4, 4)])).toThrow(ScreenError);
  });
});
