import type { Decoded } from './png-decoder';
import { learnReturningMask } from './returning-mask';
import { maskSampleOffsets } from './sample-schedule';

/** 4×1 screen, pixel 1 the caret: on or off. */
function frame(on: boolean): Decoded {
  const rgba = Buffer.alloc(16, 0xf0);
  if (on) rgba.fill(0x10, 4, 8);
  return { width: 4, height: 1, rgba };
}

/** A caret that is on for half its period and off for the other half, shifted by `phase` ms. */
const caretOn = (period: number, phase: number) => (t: number) =>
  Math.floor((t + phase) / (period / 2)) % 2 === 0;

/** A small deterministic generator: a screenshot's own delay, different for every sample. */
function delays(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % 81; // 0–80 ms
  };
}

/**
 * The caret is learnt when every phase of its blink gives a mask with the caret in it: the write
 * held at time 0, the first sample `start` ms later, each sample taken late by its screenshot.
 */
function learntAtEveryPhase(offsets: number[], period: number): boolean {
  for (let phase = 0; phase < period; phase += 5) {
    for (const start of [0, 40, 130, 300]) {
      const on = caretOn(period, phase);
      const late = delays(phase * 7 + start + 1);
      const samples = offsets.map((o) => frame(on(start + o + late())));
      if (learnReturningMask(frame(on(0)), samples).size !== 1) return false;
    }
  }
  return true;
}

describe('when the samples of a volatile mask are taken', () => {
  const defaults = { samples: 14, intervalMs: 200 };

  it('spans more than two periods of the slowest caret, each sample at its own offset', () => {
    const offsets = maskSampleOffsets(defaults.samples, defaults.intervalMs);
    expect(offsets).toHaveLength(14);
    expect(offsets[0]).toBe(0);
    expect(offsets.at(-1)).toBe(2600);
    expect(offsets.at(-1)).toBeGreaterThan(2 * 1200);
  });

  it.each([
    ['Qt', 1000],
    ['GTK', 1200],
    ['the sim host', 500],
  ])(
    'with the defaults, learns a caret blinking as %s does (a %i ms period) at every phase',
    (_, period) => {
      const offsets = maskSampleOffsets(defaults.samples, defaults.intervalMs);
      expect(learntAtEveryPhase(offsets, period)).toBe(true);
    },
  );

  it('learns any caret period from 0.5 to 1.2 s', () => {
    const offsets = maskSampleOffsets(defaults.samples, defaults.intervalMs);
    for (let period = 500; period <= 1200; period += 50) {
      expect({ period, learnt: learntAtEveryPhase(offsets, period) }).toEqual({
        period,
        learnt: true,
      });
    }
  });

  it('the former defaults (5 samples 250 ms apart) missed a 1.2 s caret at some phases', () => {
    const former = maskSampleOffsets(5, 250);
    expect(learntAtEveryPhase(former, 1200)).toBe(false);
  });

  it('still leaves out a change that appeared while sampling and stayed', () => {
    const offsets = maskSampleOffsets(defaults.samples, defaults.intervalMs);
    const on = caretOn(1000, 0);
    const appeared = (t: number) => {
      const f = frame(on(t));
      if (t > 700) f.rgba.fill(0x00, 12, 16); // pixel 3: a message that stays
      return f;
    };
    const mask = learnReturningMask(
      frame(on(0)),
      offsets.map((o) => appeared(o)),
    );
    expect(mask.has(1, 0)).toBe(true);
    expect(mask.has(3, 0)).toBe(false);
    expect(mask.size).toBe(1);
  });
});
