/**
 * The settling stage's pure decisions (step-settling.service.ts), apart from the screenshots and
 * the statement that counts the streak: when the screen is settled, whether a screen action
 * changed it, and when a streak of actions that changed nothing stops the run.
 */
import { type FrameIdentity, sameFrame } from '../pixels/same-frame';
import { RunEnds } from './run-ends';

/**
 * After a screenshot while settling: `settled` when it shows the same frame as the one before
 * (two in a row), `gave_up` when the time to settle is over (`now` at or past `until`), else
 * `again` after a pause.
 */
export function settling(
  previous: FrameIdentity | null,
  shot: FrameIdentity,
  now: number,
  until: number,
): 'settled' | 'gave_up' | 'again' {
  if (previous && sameFrame(shot, previous)) return 'settled';
  return now >= until ? 'gave_up' : 'again';
}

/**
 * Whether the screen after the action (the settled screenshot, or the last one when it did not
 * settle; null: none) still shows the frame the action was judged on: the action changed nothing.
 */
export function unchangedBy(
  after: FrameIdentity | null,
  judged: { screenSha256: string | null; frameSha256: string | null },
): boolean {
  return (
    after !== null &&
    judged.screenSha256 !== null &&
    sameFrame(after, { pngSha256: judged.screenSha256, frameSha256: judged.frameSha256 })
  );
}

/** The run's end `stalled` once `streak` screen actions in a row changed nothing (`stall_after`). */
export function stalled(streak: number, stallAfter: number): RunEnds | null {
  if (streak < stallAfter) return null;
  return new RunEnds('stalled', `${streak} screen actions in a row changed nothing on the screen`);
}
