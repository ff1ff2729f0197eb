/**
 * What a chat button asks for (docs/notifications.md): approve or reject one approval, on the
 * screen its message was about (notifications/chat-buttons.ts makes the buttons), and who pressed
 * it. Pure.
 */

export type ChatVerb = 'approve' | 'reject';

export interface ChatAction {
  verb: ChatVerb;
  approvalId: string;
  /** The SHA-256 of the screen the message was about: the decision is refused on another. */
  screenSha256: string;
}

/** Who pressed, as the chat says: a Slack team and user, or a Teams (AAD) tenant and object id. */
export interface ChatUser {
  kind: 'slack' | 'teams';
  team: string;
  user: string;
  name: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHA256 = /^[0-9a-f]{64}$/;
/** Chat ids as Slack (T…, U…, W…) and Teams (GUIDs) write them. */
const CHAT_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** The action named by `verb` and the button's data, or null when either is not Warden's. */
export function readChatAction(verb: unknown, data: unknown): ChatAction | null {
  if (verb !== 'approve' && verb !== 'reject') return null;
  const approvalId = field(data, 'approval_id');
  const screenSha256 = field(data, 'screen_sha256');
  if (typeof approvalId !== 'string' || !UUID.test(approvalId)) return null;
  if (typeof screenSha256 !== 'string' || !SHA256.test(screenSha256)) return null;
  return { verb, approvalId: approvalId.toLowerCase(), screenSha256 };
}

/** A chat user, or null when the ids are missing or not ids. */
export function readChatUser(
  kind: ChatUser['kind'],
  team: unknown,
  user: unknown,
  name: unknown,
): ChatUser | null {
  if (typeof team !== 'string' || !CHAT_ID.test(team)) return null;
  if (typeof user !== 'string' || !CHAT_ID.test(user)) return null;
  return {
    kind,
    team,
    user,
    name: typeof name === 'string' && name.length > 0 ? name.slice(0, 200) : null,
  };
}

/** `value[key]` when `value` is an object; undefined otherwise. */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** `value[k1][k2]…`, undefined where a step is not an object. */
export function path(value: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((at, key) => field(at, key), value);
}
