import { SLACK_ACTION_IDS } from '../notifications/chat-buttons';
import {
  field,
  path,
  readChatAction,
  readChatUser,
  type ChatAction,
  type ChatUser,
} from './chat-action';

/**
 * A Slack interactivity request (docs/notifications.md): a form body whose one field `payload` is
 * the JSON of a `block_actions` event: who pressed (`user`, `team`), which button (`actions[0]`,
 * its `action_id` and `value`) and where to answer (`response_url`). Read before the signature is
 * checked only to find whose secret checks it; nothing in it is believed until then. Pure.
 */

export interface SlackPress {
  action: ChatAction;
  user: ChatUser;
  /** Where Slack takes an answer for this message (a Slack origin); null when it sent none. */
  responseUrl: string | null;
  /** The message's blocks as Slack showed them, to update it in place; null when not sent. */
  messageBlocks: unknown[] | null;
}

/** A press of Warden's Approve or Reject; `ignored` for its link buttons; else what is wrong. */
export function readSlackPress(
  rawBody: Buffer,
): SlackPress | { ignored: true } | { problem: string } {
  const text = new URLSearchParams(rawBody.toString('utf8')).get('payload');
  if (text === null) return { problem: 'the body has no payload field' };
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return { problem: 'the payload is not JSON' };
  }
  const type = field(payload, 'type');
  if (type !== 'block_actions') {
    return { problem: `Warden takes block_actions, not ${String(type).slice(0, 40)}` };
  }
  const actions = field(payload, 'actions');
  const pressed: unknown = Array.isArray(actions) ? actions[0] : undefined;
  const actionId = field(pressed, 'action_id');
  // A link button's press is reported too; the browser follows the link, Warden has nothing to do.
  if (typeof actionId === 'string' && actionId.startsWith(`${SLACK_ACTION_IDS.open}.`)) {
    return { ignored: true };
  }
  const verb =
    actionId === SLACK_ACTION_IDS.approve
      ? 'approve'
      : actionId === SLACK_ACTION_IDS.reject
        ? 'reject'
        : null;
  const action = readChatAction(verb, jsonOrNull(field(pressed, 'value')));
  if (!action) return { problem: 'the action is not one of Warden’s buttons' };
  const user = readChatUser(
    'slack',
    path(payload, 'team', 'id') ?? path(payload, 'user', 'team_id'),
    path(payload, 'user', 'id'),
    path(payload, 'user', 'name') ?? path(payload, 'user', 'username'),
  );
  if (!user) return { problem: 'the payload names no Slack team and user' };
  const responseUrl = field(payload, 'response_url');
  const blocks = path(payload, 'message', 'blocks');
  return {
    action,
    user,
    responseUrl: typeof responseUrl === 'string' ? responseUrl : null,
    messageBlocks: Array.isArray(blocks) ? blocks : null,
  };
}

/** A button's value as the JSON it carries; null when it is none. */
function jsonOrNull(value: unknown): unknown {
  if (typeof value !== 'string') return null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}
