import { RunEnds } from './run-ends';
import { settling, stalled, unchangedBy } from './settling-decisions';

const A = { pngSha256: 'a'.repeat(64), frameSha256: null };
const B = { pngSha256: 'b'.repeat(64), frameSha256: null };
/** The frame of A, encoded into other bytes by a host that sends its frame hash. */
const framed = { pngSha256: 'c'.repeat(64), frameSha256: 'f'.repeat(64) };
const framedAgain = { pngSha256: 'd'.repeat(64), frameSha256: 'f'.repeat(64) };

describe('when the screen is settled', () => {
  it.each([
    ['the same bytes twice in a row', A, A, 0, 'settled'],
    ['the same frame hash in other bytes', framed, framedAgain, 0, 'settled'],
    ['the same bytes even when the time is over', A, A, 10, 'settled'],
    ['the first screenshot, in time', null, A, 0, 'again'],
    ['another frame, in time', A, B, 4, 'again'],
    ['another frame, the time over', A, B, 5, 'gave_up'],
    ['the first screenshot, the time over', null, A, 6, 'gave_up'],
  ] as const)('%s', (_, previous, shot, now, expected) => {
    expect(settling(previous, shot, now, 5)).toBe(expected);
  });
});

describe('whether a screen action changed the screen', () => {
  const judged = { screenSha256: A.pngSha256, frameSha256: null };
  it.each([
    ['the same bytes as judged', A, judged, true],
    [
      'the judged frame in other bytes',
      framedAgain,
      { screenSha256: 'c'.repeat(64), frameSha256: 'f'.repeat(64) },
      true,
    ],
    ['other bytes, no frame hash', B, judged, false],
    ['no screenshot after the action', null, judged, false],
    ['a step with no screen of its own', A, { screenSha256: null, frameSha256: null }, false],
  ] as const)('%s', (_, after, step, expected) => {
    expect(unchangedBy(after, step)).toBe(expected);
  });
});

describe('stalling', () => {
  it('goes on below stall_after', () => {
    expect(stalled(0, 3)).toBeNull();
    expect(stalled(2, 3)).toBeNull();
  });

  it.each([3, 4])('stops the run stalled at a streak of %d of 3', (streak) => {
    const end = stalled(streak, 3);
    expect(end).toBeInstanceOf(RunEnds);
    expect(end).toMatchObject({
      reason: 'stalled',
      summary: `${streak} screen actions in a row changed nothing on the screen`,
      step: { outcome: null },
    });
  });
});
