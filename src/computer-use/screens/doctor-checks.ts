/**
 * The doctor's checks that are plain decisions (DESIGN §9): the screen size against the PNG, and
 * whether the host checks the frame an action was judged on. No I/O; doctor.service.ts gathers
 * what they judge.
 */
import { FRAME_PRECONDITION_CAPABILITY } from '@warden/protocol';
import type { ScreenHostHealth, Screenshot } from './screen-host.types';

export type DoctorCheckName =
  | 'config'
  | 'reachable'
  | 'tls'
  | 'token_grant'
  | 'token_variable'
  | 'token_accepted'
  | 'screenshot'
  | 'screen_size'
  | 'outline'
  | 'idempotency'
  | 'frame_precondition';

export interface DoctorCheck {
  name: DoctorCheckName;
  ok: boolean;
  detail: string;
  /** What a person can do about a failed check. */
  next_step?: string;
}

/**
 * Does the host check the frame an action was judged on, atomically with acting (DESIGN §5, §7)?
 * A host that does not announce `frame_precondition` works (Warden compares a fresh screenshot
 * right before each action), so that is not a failure; one that announces it must name each
 * screenshot's frame (`X-Frame-SHA256`) by the very pixels of its PNG.
 * `health`: the host's health, null for none, or the failed call; `shot`: the screenshot if one
 * came; `pixels`: the pixel SHA-256 of its PNG if it decoded.
 */
export function frameCheck(
  health: ScreenHostHealth | null | { ok: false; error: unknown },
  shot: Pick<Screenshot, 'frameSha256'> | null,
  pixels: string | null,
): DoctorCheck {
  const name = 'frame_precondition';
  if (health !== null && 'ok' in health) {
    return {
      name,
      ok: false,
      detail: `not checked: GET /health failed (${messageOf(health.error)})`,
      next_step: "fix the screen host's GET /health (see the idempotency check)",
    };
  }
  if (health === null || !health.capabilities.includes(FRAME_PRECONDITION_CAPABILITY)) {
    return {
      name,
      ok: true,
      detail: `the screen host does not announce ${FRAME_PRECONDITION_CAPABILITY}: Warden compares a fresh screenshot right before each action instead, which cannot see a dialog that opens in the moment between; a screen host that checks the frame itself closes that gap`,
    };
  }
  if (shot === null || pixels === null) {
    return {
      name,
      ok: false,
      detail: 'not checked: no screenshot that decodes',
      next_step: 'fix the screenshot check first',
    };
  }
  if (shot.frameSha256 === null) {
    return {
      name,
      ok: false,
      detail: `the screen host announces ${FRAME_PRECONDITION_CAPABILITY} but its screenshot carries no X-Frame-SHA256`,
      next_step:
        'update the screen host: until its screenshots name their frame, every action on it is sent without the frame check',
    };
  }
  if (shot.frameSha256 !== pixels) {
    return {
      name,
      ok: false,
      detail: `the screenshot's X-Frame-SHA256 ${shot.frameSha256} is not the SHA-256 of its PNG's pixels (${pixels}): the host would compare the screen with a frame other than the one Warden judged`,
      next_step:
        "update or fix the screen host's backend: the frame it hashes must be exactly the pixels of the PNG it serves",
    };
  }
  return {
    name,
    ok: true,
    detail:
      "the screen host checks the frame each action was judged on before it acts, and the screenshot's X-Frame-SHA256 is its pixels' SHA-256",
  };
}

/** `X-Screen-Width/Height` against the PNG: equal, or one exact scale on both axes (HiDPI). */
export function sizeCheck(
  width: number,
  height: number,
  pngWidth: number,
  pngHeight: number,
): DoctorCheck {
  if (width === pngWidth && height === pngHeight) {
    return {
      name: 'screen_size',
      ok: true,
      detail: `actions use ${width}x${height}, the PNG's own pixels`,
    };
  }
  if (pngWidth * height === pngHeight * width) {
    const g = gcd(pngWidth, width);
    const ratio = g === width ? `${pngWidth / width}` : `${pngWidth / g}/${width / g}`;
    return {
      name: 'screen_size',
      ok: true,
      detail: `HiDPI: the PNG is ${pngWidth}x${pngHeight}, actions use ${width}x${height}, an exact scale of ${ratio} on both axes; Warden scales`,
    };
  }
  const sx = Math.round((pngWidth / width) * 1000) / 1000;
  const sy = Math.round((pngHeight / height) * 1000) / 1000;
  return {
    name: 'screen_size',
    ok: false,
    detail: `the PNG is ${pngWidth}x${pngHeight} but the host says actions use ${width}x${height}: the axes scale differently (${sx} and ${sy}), so clicks would land in the wrong place`,
    next_step:
      'make the screen host report the coordinate space its input uses (X-Screen-Width/X-Screen-Height), with the same scale on both axes as its screenshots',
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
