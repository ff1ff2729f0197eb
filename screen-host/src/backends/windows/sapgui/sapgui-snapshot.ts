/**
 * What the PowerShell helper reads of the active SAP GUI session through SAP GUI Scripting, as it
 * sends it (sapgui-script.ts), and the check that turns it into something the mapping may trust:
 * every field typed, every string and the tree bounded, anything else a refusal. Pure.
 *
 * The tree is SAP's own: one `GetObjectTree(windowId, props)` answer per window, whose shape is
 * `{children: [{properties: {Id, Type, …}, children: [...]}]}` with every property a string
 * ("true", "false", "" where it does not apply), or the same shape built element by element where
 * the SAP GUI release has no GetObjectTree.
 */

/** Why there is no SAP GUI outline now, in the host's words (GET /health, docs/screen-host.md). */
export const SAPGUI_REFUSALS = [
  /** SapROTWr.SapROTWrapper is not registered: SAP GUI for Windows is not installed. */
  'not_installed',
  /** No "SAPGUI" entry in the running object table: SAP Logon is not running. */
  'not_running',
  /** The scripting engine refused: SAP GUI Scripting is switched off on this PC. */
  'scripting_disabled',
  /** Every connection says DisabledByServer: the profile parameter sapgui/user_scripting. */
  'disabled_by_server',
  /** No connection, or no active session. */
  'no_session',
  /** The session is busy (a round trip to the server is under way). */
  'busy',
  /** SAP GUI's active window is not the foreground window: the screenshot shows something else. */
  'not_in_front',
  /** A window's place on the screen could not be read (its Handle or GetWindowRect failed). */
  'geometry_unknown',
  /** SAP GUI's coordinates do not match the window's on the screen by any one scale. */
  'geometry_mismatch',
  /** More elements, deeper or longer than the outline takes. */
  'too_large',
  /** What the helper sent is not a snapshot this host understands. */
  'unreadable',
  /** Reading it failed (a COM error, a timeout). */
  'error',
] as const;
export type SapGuiRefusalCode = (typeof SAPGUI_REFUSALS)[number];

export interface SapGuiRefusal {
  refused: SapGuiRefusalCode;
  /** One sentence for a person; never a field's content. */
  detail: string;
}

/** One element as GetObjectTree gives it: SAP's properties by name, and its children. */
export interface SapNode {
  properties: Readonly<Record<string, string>>;
  children: readonly SapNode[];
}

/** Windows' own rectangle of a SAP GUI window (GetWindowRect of its Handle), physical pixels. */
export interface WindowRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface SapWindowFacts {
  /** SAP GUI Scripting's id of the window (`/app/con[0]/ses[0]/wnd[1]`). */
  id: string;
  /** Null: the helper could not read it, and nothing can place this window's elements. */
  windowRect: WindowRect | null;
}

/** The status bar as read on its own (GetObjectTree need not carry MessageType). */
export interface SapStatus {
  id: string;
  text: string;
  messageType: string;
  asPopup: boolean | null;
}

/** A session's GuiSessionInfo, as strings (SystemName, Client, User, Transaction …). */
export type SapSessionInfo = Readonly<Record<string, string>>;

export interface SapGuiSnapshot {
  /** How the tree was read: one GetObjectTree call per window, or element by element. */
  source: 'object_tree' | 'walk';
  session: SapSessionInfo;
  /** The id of the session's ActiveWindow. */
  activeWindow: string;
  /** The id of the active window's GuiFocus; null when none. */
  focus: string | null;
  /** Whether the active window's Handle is Windows' foreground window. */
  foreground: boolean;
  status: SapStatus | null;
  windows: readonly SapWindowFacts[];
  /** One tree per window, in the order of `windows`: the window is `children[0]`. */
  trees: readonly SapNode[];
}

/** The bounds of what a snapshot may hold; past any of them it is refused, never cut. */
export const SNAPSHOT_LIMITS = {
  windows: 8,
  nodes: 10_000,
  depth: 48,
  /** Properties per element. */
  properties: 64,
  /** UTF-16 code units of one property value; a longer one is left out (as if SAP had none). */
  value: 4_000,
  id: 1_000,
} as const;

const SESSION_KEYS = [
  'SystemName',
  'Client',
  'User',
  'Language',
  'Transaction',
  'Program',
  'ScreenNumber',
  'SessionNumber',
  'ScriptingModeReadOnly',
  'ScriptingModeRecordingDisabled',
] as const;

class Refused extends Error {
  constructor(
    readonly code: SapGuiRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

function fail(detail: string, code: SapGuiRefusalCode = 'unreadable'): never {
  throw new Refused(code, detail);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A COM value as the string GetObjectTree would give: booleans "true"/"false", numbers in full. */
function asString(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** SAP's "true"/"True"/"-1" (a COM VARIANT_BOOL) and "false"/"False"/"0"; anything else unknown. */
export function sapBool(value: string | undefined): boolean | null {
  if (value === undefined) return null;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '-1' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return null;
}

/** A whole number SAP sent as a string ("176", "-1"); null when it is none. */
export function sapInt(value: string | undefined): number | null {
  if (value === undefined || !/^\s*-?\d{1,9}\s*$/.test(value)) return null;
  return Number(value);
}

function strings(value: unknown, what: string, keys?: readonly string[]): Record<string, string> {
  if (!isObject(value)) fail(`${what} is not an object`);
  const out: Record<string, string> = {};
  const names = keys ?? Object.keys(value);
  if (names.length > SNAPSHOT_LIMITS.properties)
    fail(`${what} has too many properties`, 'too_large');
  for (const name of names) {
    const s = asString(value[name]);
    if (s !== null && s.length <= SNAPSHOT_LIMITS.value) out[name] = s;
  }
  return out;
}

function id(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') fail(`${what} is not an id`);
  if (value.length > SNAPSHOT_LIMITS.id)
    fail(`${what} is longer than ${SNAPSHOT_LIMITS.id} characters`, 'too_large');
  return value;
}

function windowRect(value: unknown, what: string): WindowRect | null {
  if (value === null || value === undefined) return null;
  if (!isObject(value)) fail(`${what} is not a rectangle`);
  const out = {} as Record<keyof WindowRect, number>;
  for (const side of ['left', 'top', 'right', 'bottom'] as const) {
    const n = value[side];
    if (typeof n !== 'number' || !Number.isInteger(n) || Math.abs(n) > 1_000_000)
      fail(`${what}.${side} is not a whole number of pixels`);
    out[side] = n;
  }
  if (out.right <= out.left || out.bottom <= out.top) return null;
  return out;
}

/** Checks one GetObjectTree answer, counting its elements into `budget`. */
function tree(value: unknown, what: string, budget: { nodes: number }): SapNode {
  const walk = (node: unknown, depth: number): SapNode => {
    if (depth > SNAPSHOT_LIMITS.depth)
      fail(`${what} is deeper than ${SNAPSHOT_LIMITS.depth} levels`, 'too_large');
    if (!isObject(node)) fail(`${what} holds an element that is not an object`);
    if (++budget.nodes > SNAPSHOT_LIMITS.nodes)
      fail(`the session holds more than ${SNAPSHOT_LIMITS.nodes} elements`, 'too_large');
    const kids = node.children ?? [];
    if (!Array.isArray(kids)) fail(`${what} holds children that are not a list`);
    const properties =
      node.properties === undefined ? {} : strings(node.properties, `${what} properties`);
    return { properties, children: kids.map((k) => walk(k, depth + 1)) };
  };
  return walk(value, 0);
}

/**
 * The helper's answer as a snapshot, or the refusal it sent or its answer amounts to. Never
 * throws: what cannot be checked is refused (`unreadable`, `too_large`).
 */
export function readSnapshot(raw: unknown): SapGuiSnapshot | SapGuiRefusal {
  try {
    return read(raw);
  } catch (err) {
    if (err instanceof Refused) return { refused: err.code, detail: err.message };
    throw err;
  }
}

const REFUSALS: ReadonlySet<string> = new Set(SAPGUI_REFUSALS);

function read(raw: unknown): SapGuiSnapshot {
  if (!isObject(raw)) fail('the SAP GUI snapshot is not an object');
  if (raw.refused !== undefined) {
    const code =
      typeof raw.refused === 'string' && REFUSALS.has(raw.refused) ? raw.refused : 'error';
    const detail = typeof raw.detail === 'string' ? raw.detail.slice(0, 300) : 'no reason given';
    fail(detail, code as SapGuiRefusalCode);
  }
  if (raw.source !== 'object_tree' && raw.source !== 'walk') fail('the snapshot names no source');
  const session = strings(raw.session, 'session', SESSION_KEYS);
  const activeWindow = id(raw.active_window, 'active_window');
  const focus =
    raw.focus === null || raw.focus === undefined || raw.focus === ''
      ? null
      : id(raw.focus, 'focus');
  if (typeof raw.foreground !== 'boolean') fail('foreground is not true or false');
  let status: SapStatus | null = null;
  if (raw.status !== null && raw.status !== undefined) {
    const s = strings(raw.status, 'status', ['Id', 'Text', 'MessageType', 'MessageAsPopup']);
    status = {
      id: id(s.Id, 'status.Id'),
      text: s.Text ?? '',
      messageType: s.MessageType ?? '',
      asPopup: sapBool(s.MessageAsPopup),
    };
  }
  if (!Array.isArray(raw.windows) || raw.windows.length === 0)
    fail('the snapshot lists no windows');
  if (raw.windows.length > SNAPSHOT_LIMITS.windows)
    fail(`the session has more than ${SNAPSHOT_LIMITS.windows} windows`, 'too_large');
  const windows = raw.windows.map((w, n): SapWindowFacts => {
    if (!isObject(w)) fail(`window ${n} is not an object`);
    return {
      id: id(w.id, `window ${n} id`),
      windowRect: windowRect(w.window_rect, `window ${n} window_rect`),
    };
  });
  if (!Array.isArray(raw.trees) || raw.trees.length !== windows.length)
    fail('the snapshot does not hold one tree per window');
  const budget = { nodes: 0 };
  const trees = raw.trees.map((t, n) => tree(t, `the tree of window ${n}`, budget));
  return {
    source: raw.source,
    session,
    activeWindow,
    focus,
    foreground: raw.foreground,
    status,
    windows,
    trees,
  };
}
