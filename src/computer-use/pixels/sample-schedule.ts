/**
 * When the screenshots that learn a volatile mask are taken (docs/security.md, "The volatile mask of
 * a held write"): `samples` of them, `intervalMs` apart, each at its own offset from the first, so a
 * slow screenshot delays only itself, not every sample after it (pauses of `intervalMs` after each
 * screenshot drift by the screenshots' time and can fall in step with a caret's blink).
 *
 * A caret is seen to leave the held screen's value and come back when a sample falls in each half
 * of its blink (the interval shorter than half its period) and the window spans a whole period
 * after the first sample. The defaults (14 × 200 ms: 2.6 s) span more than two periods of the
 * slowest common caret (GTK's 1.2 s; Qt's is 1 s).
 */

/** Offsets in ms from the first sample, ascending, the first 0. */
export function maskSampleOffsets(samples: number, intervalMs: number): number[] {
  return Array.from({ length: samples }, (_, k) => k * intervalMs);
}
