/**
 * The sending stage's pure decisions (step-sending.service.ts, frame-guard.service.ts), apart
 * from the I/O that feeds them: whether a fresh screenshot is still the screen an action was
 * judged or approved on, what a send the gate did not let go comes to, as what a send the gate
 * let go is recorded, what a host's refusal to act means, and whether a recovered send may go.
 */
import type { SendGate } from '../runs/send-gate';
import { compareScreens, type VolatileMask } from '../pixels/pixels';
import { hiddenChange } from '../host-client/redaction';
import type { Screenshot } from '../host-client/screen-host.client';
import type { Rect } from '../settings/agent-config';

/** Why a read that a weakening made one is held after all. */
export const LOOSENING_GONE =
  'the weakening that made it a read (unlabelled_clicks or a screen rule) is no longer in force as it was';

/** Why an unapproved write of an agent whose writes need no approval is held after all. */
export const SCRIPT_NOT_GRANTED =
  "the script that planned it is not the content granted to this agent's writes without approval (it was replaced or deleted, or the agent's planner changed, since the grant)";

/** The screen an action was judged (or approved) on, as the comparison with a fresh one reads it. */
export interface ComparedScreen {
  /** SHA-256 of its PNG bytes, when known: equal bytes are the same screen, its PNG not loaded. */
  pngSha256?: string | null;
  /** SHA-256 of the real pixels under the agent's `redact_regions`, when it redacts. */
  hiddenSha256?: string | null;
}

/**
 * Why `fresh` is no longer the screen the action was judged or approved on; null: it still is.
 * The redacted PNGs cannot show a change under the regions, their hidden hash can; equal PNG
 * bytes are the same pixels; otherwise the pixels are compared, leaving out the volatile mask and
 * the agent's `ignore_regions` (in the host's coordinate space). `png` loads the judged PNG
 * (null: it is missing), only when the pixels must be compared.
 */
export async function screenChange(
  judged: ComparedScreen,
  png: () => Promise<Buffer | null>,
  fresh: Screenshot,
  exclude: { mask: VolatileMask | null; ignoreRegions: Rect[] },
): Promise<string | null> {
  const hidden = hiddenChange(judged.hiddenSha256, fresh);
  if (hidden) return hidden;
  if (judged.pngSha256 && fresh.pngSha256 === judged.pngSha256) return null;
  const held = await png();
  if (!held) return 'the held screenshot is missing';
  const result = compareScreens(held, fresh.png, {
    mask: exclude.mask,
    ignoreRegions: exclude.ignoreRegions,
    regionSpace: { width: fresh.width, height: fresh.height },
  });
  return result.same ? null : result.why;
}

/**
 * What a send the gate did not mark `sending` comes to, the admin's switches apart: held for a
 * person after all (the run is running, the agent's writes need approval now, or its step was not
 * planned by the script content granted to it, and this was an unapproved write or a read whose
 * weakening is gone), or nothing (null: cancelled or taken over meanwhile; nothing was sent).
 */
export function notMarked(
  gate: SendGate | null,
  unapprovedWrite: boolean,
): { hold: string } | null {
  const held = gate?.runStatus === 'running' && gate.writesNeedApproval;
  if (held && unapprovedWrite && !gate.scriptAsGranted) return { hold: SCRIPT_NOT_GRANTED };
  if (held && unapprovedWrite) return { hold: "the agent's writes need approval again" };
  if (held && !gate.looseningInForce) return { hold: LOOSENING_GONE };
  return null;
}

/**
 * As what a send the gate let go is recorded when that is not how it was decided: a staged edit
 * while the agent no longer stages typing (`staged`), a read by a weakening no longer in force
 * (`loosened`); the gate let it go because the agent's writes need no approval now. Null: as
 * decided.
 */
export function sentOtherwise(
  gate: SendGate | null,
  staged: boolean | undefined,
  loosening: unknown,
): 'staged' | 'loosened' | null {
  if (staged && !gate?.stagesTyping) return 'staged';
  if (loosening && !gate?.looseningInForce) return 'loosened';
  return null;
}

/**
 * What the host's refusal to act means for a send on its `tries`-th refusal (0: the first):
 * the screen changed; the host no longer holds the frame (once: Warden compares the screen itself
 * and tries again on the fresh frame; twice: the screen counts as changed); or another failure,
 * whose outcome the host is asked about (`failed`).
 */
export function afterRefusal(
  kind: string,
  tries: number,
): { changed: string } | 'recheck' | 'failed' {
  if (kind === 'screen_changed') return { changed: 'the screen changed before the host could act' };
  if (kind === 'frame_unknown' && tries === 0) return 'recheck';
  if (kind === 'frame_unknown') return { changed: 'the screen host lost the frame twice' };
  return 'failed';
}

/**
 * Whether an action the host had not performed when its worker died may be sent again, after the
 * screen check: not when the run ended meanwhile (`run_ended`), nor an unapproved write (not a
 * staged edit the agent still stages) while the agent's writes need a person again
 * (`needs_approval`). Null: it goes (the admin's switches are the send gate's own refusal).
 */
export function resendRefused(
  gate: SendGate | null,
  facts: { approved: boolean; write: boolean; staged: boolean },
): 'run_ended' | 'needs_approval' | null {
  if (!gate || gate.runStatus !== 'running') return 'run_ended';
  const stagedStill = facts.staged && gate.stagesTyping;
  if (!facts.approved && facts.write && gate.writesNeedApproval && !stagedStill) {
    return 'needs_approval';
  }
  return null;
}
