import { flagOf } from './oversight-flags';

const settings = { decisions: 20, medianSeconds: 10 };
const stamp = { decisions: 20, rejected: 0, timed: 20, median_seconds: 2.4 };

describe('the oversight flag (oversight-flags.ts)', () => {
  it('flags no rejection over the latest N decisions made fast', () => {
    expect(flagOf(stamp, settings)).toBe(
      'approved each of their latest 20 decisions, in a median of 2.4 s from opening the page (under 10 s)',
    );
    // Some decisions away from the page: the median of the timed ones still says it.
    expect(flagOf({ ...stamp, timed: 3 }, settings)).not.toBeNull();
  });

  it.each([
    ['fewer than N decisions', { decisions: 19 }],
    ['one rejection', { rejected: 1 }],
    ['a median at the threshold', { median_seconds: 10 }],
    ['a slower median', { median_seconds: 45 }],
    ['no decision made on the page', { timed: 0, median_seconds: null }],
  ])('does not flag %s', (_what, change) => {
    expect(flagOf({ ...stamp, ...change }, settings)).toBeNull();
  });
});
