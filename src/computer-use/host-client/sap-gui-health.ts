/**
 * What a windows screen host's GET /health says of SAP GUI Scripting, its outline's source
 * (`sap_gui`, docs/screen-host.md): checked field by field, anything else left out, as the rest
 * of a host's answers are (host-answers.ts). Pure.
 */

/** The host's words for SAP GUI Scripting: `ok`, or why it gives no outline. */
export const SAP_GUI_STATES = [
  'ok',
  'not_installed',
  'not_running',
  'scripting_disabled',
  'disabled_by_server',
  'no_session',
  'busy',
  'not_in_front',
  'geometry_unknown',
  'geometry_mismatch',
  'too_large',
  'unreadable',
  'error',
] as const;
export type SapGuiState = (typeof SAP_GUI_STATES)[number];

export interface SapGuiSession {
  system: string | null;
  client: string | null;
  user: string | null;
  transaction: string | null;
}

export interface SapGuiHealth {
  /** A state Warden does not know reads as `error`. */
  state: SapGuiState;
  detail: string | null;
  /** sapgui/user_scripting_set_readonly in force; null: not said. */
  readOnly: boolean | null;
  session: SapGuiSession | null;
  /** What the host's last GET /elements served, or why it served none; null: not said. */
  outline:
    | { served: number; source: string | null }
    | { refused: SapGuiState; detail: string | null }
    | null;
}

const STATES: ReadonlySet<string> = new Set(SAP_GUI_STATES);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short printable string, or null. */
function text(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  if (clean === '') return null;
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

function state(value: unknown): SapGuiState {
  return typeof value === 'string' && STATES.has(value) ? (value as SapGuiState) : 'error';
}

/** The host's `sap_gui`, or undefined where it sent none (a host that reads no SAP GUI). */
export function sapGuiHealthOf(value: unknown): SapGuiHealth | undefined {
  if (!isObject(value)) return undefined;
  const session = isObject(value.session)
    ? {
        system: text(value.session.system, 40),
        client: text(value.session.client, 10),
        user: text(value.session.user, 40),
        transaction: text(value.session.transaction, 40),
      }
    : null;
  let outline: SapGuiHealth['outline'] = null;
  const o = value.outline;
  if (isObject(o) && Number.isInteger(o.served) && (o.served as number) >= 0) {
    outline = { served: o.served as number, source: text(o.source, 20) };
  } else if (isObject(o) && typeof o.refused === 'string') {
    outline = { refused: state(o.refused), detail: text(o.detail, 300) };
  }
  return {
    state: state(value.state),
    detail: text(value.detail, 300),
    readOnly: typeof value.read_only === 'boolean' ? value.read_only : null,
    session,
    outline,
  };
}
