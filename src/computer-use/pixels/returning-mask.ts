/**
 * The volatile mask of a held write (docs/security.md): the pixels seen to leave the held screen's
 * value and come back to it while the screen was sampled, that is, to move by themselves (a
 * blinking caret). A pixel that changed and stayed changed (a message that appeared) is not in it,
 * so the resume's comparison still sees that change.
 */
import type { Decoded } from './png-decoder';
import { pixelWords } from './pixels';
import { ScreenError } from './screen-error';
import { VolatileMask } from './volatile-mask';

/**
 * `held`: the screen the write was held on; `samples`: screenshots taken after it, in order (taken
 * one at a time, so a caller that decodes them lazily holds three decoded frames at once).
 */
export function learnReturningMask(held: Decoded, samples: Iterable<Decoded>): VolatileMask {
  const { width, height } = held;
  const base = pixelWords(held);
  const left = new Uint8Array(Math.ceil((width * height) / 8));
  const back = new Uint8Array(left.length);
  for (const sample of samples) {
    if (sample.width !== width || sample.height !== height) {
      throw new ScreenError(
        `the samples differ in size (${width}x${height} and ${sample.width}x${sample.height}): the screen changed, it did not just blink`,
      );
    }
    if (sample.rgba.equals(held.rgba)) {
      for (let b = 0; b < left.length; b++) back[b] |= left[b];
      continue;
    }
    const words = pixelWords(sample);
    for (let i = 0; i < base.length; i++) {
      const bit = 1 << (i & 7);
      if (words[i] !== base[i]) left[i >> 3] |= bit;
      else if (left[i >> 3] & bit) back[i >> 3] |= bit;
    }
  }
  return VolatileMask.fromBits(width, height, back);
}
