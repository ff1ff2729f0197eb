/**
 * The doctor's checks that are plain decisions (docs/api.md): the screen size against the PNG,
 * whether the host checks the frame an action was judged on, and on a windows host next to SAP
 * GUI whether SAP GUI Scripting gives it an outline. No I/O; doctor.service.ts gathers what they
 * judge.
 */
import { FRAME_PRECONDITION_CAPABILITY } from '@warden/protocol';
import type { SapGuiHealth, SapGuiState } from '../host-client/sap-gui-health';
import type { ScreenHostHealth, Screenshot } from '../host-client/screen-host.types';

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
  | 'frame_precondition'
  | 'sap_gui_scripting';

export interface DoctorCheck {
  name: DoctorCheckName;
  ok: boolean;
  detail: string;
  /** What a person can do about a failed check. */
  next_step?: string;
}

/**
 * Does the host check the frame an action was judged on, atomically with acting (docs/rules.md, docs/screen-host.md)?
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

/** The profile parameters the doctor names; the SAP Basis team sets them (transaction RZ11). */
const ENABLE = 'sapgui/user_scripting';
const READ_ONLY = 'sapgui/user_scripting_set_readonly';
const PER_USER = 'sapgui/user_scripting_per_user';

/** What a person does about each reason SAP GUI Scripting gives the host no outline. */
const SAP_GUI_NEXT: Record<Exclude<SapGuiState, 'ok'>, string> = {
  not_installed:
    'install SAP GUI for Windows with its SAP GUI Scripting component for the user the screen host runs as; with a 32-bit SAP GUI, start the host with --sap-gui-powershell naming the 32-bit PowerShell (C:\\Windows\\SysWOW64\\WindowsPowerShell\\v1.0\\powershell.exe)',
  not_running:
    'start SAP Logon and sign in, in the same Windows session as the screen host (not as a service)',
  scripting_disabled:
    'on the Windows machine, in SAP GUI Options, Accessibility & Scripting, Scripting: tick "Enable scripting" (an administrator may have locked it), untick "Notify when a script attaches to SAP GUI", then restart SAP Logon',
  disabled_by_server: `ask the SAP Basis team to set the profile parameter ${ENABLE} = TRUE on the application servers (transaction RZ11; it takes effect at the next logon); where ${PER_USER} = TRUE the user also needs authorization object S_SCR (activity 16). Warden only reads through scripting, so set ${READ_ONLY} = TRUE with it`,
  no_session: "sign in to the SAP system in SAP Logon on the screen host's desktop",
  busy: 'the session was busy when asked; run the doctor again once SAP GUI is idle',
  not_in_front:
    "keep SAP GUI the window in front on the screen host's desktop, not minimised, with nothing over it",
  geometry_unknown:
    "the host could not place SAP GUI's windows on the screen: follow the pilot checklist in docs/screen-host.md (SAP GUI, display scaling) and send the host's log",
  geometry_mismatch:
    "SAP GUI's coordinates do not match its windows on the screen: set the display scaling to 100 % or run SAP GUI DPI-aware (docs/screen-host.md, SAP GUI), then run the doctor again",
  too_large:
    'this screen holds more than an outline takes: Warden reads its pixels there, as on a screen without an outline',
  unreadable:
    "update the screen host: what its SAP GUI helper sent could not be read (see the host's log)",
  error: "see the screen host's log: reading SAP GUI failed",
};

/**
 * Whether SAP GUI Scripting gives a windows host its outline, where the host reads SAP GUI
 * (`sap_gui` in GET /health); null for any other host. Names the SAP profile parameter where the
 * server refuses scripting, and recommends read-only scripting where it is not in force.
 */
export function sapGuiCheck(health: ScreenHostHealth | null | { ok: false }): DoctorCheck | null {
  if (health === null || 'ok' in health || !health.sapGui) return null;
  const sap: SapGuiHealth = health.sapGui;
  const name = 'sap_gui_scripting';
  if (sap.state !== 'ok') {
    return {
      name,
      ok: false,
      detail: `SAP GUI Scripting gives the screen host no outline (${sap.state}${sap.detail ? `: ${sap.detail}` : ''}); labels are read from pixels`,
      next_step: SAP_GUI_NEXT[sap.state],
    };
  }
  const s = sap.session;
  const where = s
    ? [
        s.system && `system ${s.system}`,
        s.client && `client ${s.client}`,
        s.user && `user ${s.user}`,
        s.transaction && `transaction ${s.transaction}`,
      ]
        .filter(Boolean)
        .join(', ')
    : '';
  const reads = `SAP GUI Scripting reads the active session${where ? ` (${where})` : ''}`;
  const mode =
    sap.readOnly === true
      ? `, read-only (${READ_ONLY}) as recommended`
      : sap.readOnly === false
        ? `; scripting is not read-only: Warden only reads through it, so ${READ_ONLY} = TRUE is recommended`
        : '';
  const o = sap.outline;
  if (o && 'refused' in o && o.refused !== 'ok' && o.refused !== 'busy') {
    return {
      name,
      ok: false,
      detail: `${reads}${mode}, but the last outline was refused (${o.refused}${o.detail ? `: ${o.detail}` : ''})`,
      next_step: SAP_GUI_NEXT[o.refused],
    };
  }
  const served =
    o && 'served' in o
      ? `; the last outline held ${o.served} elements (${o.source ?? 'source unknown'})`
      : '';
  return { name, ok: true, detail: `${reads}${mode}${served}` };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
