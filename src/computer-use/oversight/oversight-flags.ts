/**
 * When a person's decisions look like a rubber stamp (docs/approver-guide.md, oversight): their
 * latest `decisions` decisions (OVERSIGHT_FLAG_DECISIONS) hold no rejection, and the median time
 * from opening the approval page to deciding is under `medianSeconds`
 * (OVERSIGHT_FLAG_MEDIAN_SECONDS). Decisions made away from the page (the API, a chat) have no
 * such time: they count towards the decisions and the rejections, not the median. Pure.
 */

export interface FlagSettings {
  decisions: number;
  medianSeconds: number;
}

export interface Latest {
  decisions: number;
  rejected: number;
  timed: number;
  median_seconds: number | null;
}

/** Why the person is flagged, in words; null when they are not. */
export function flagOf(latest: Latest, settings: FlagSettings): string | null {
  if (latest.decisions < settings.decisions || latest.rejected > 0) return null;
  if (latest.timed === 0 || latest.median_seconds === null) return null;
  if (latest.median_seconds >= settings.medianSeconds) return null;
  return `approved each of their latest ${latest.decisions} decisions, in a median of ${latest.median_seconds} s from opening the page (under ${settings.medianSeconds} s)`;
}
