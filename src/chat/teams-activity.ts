import {
  field,
  path,
  readChatAction,
  readChatUser,
  type ChatAction,
  type ChatUser,
} from './chat-action';

/**
 * A Teams invoke activity (docs/notifications.md): the Bot Framework posts `{type: "invoke", name:
 * "adaptiveCard/action", value: {action: {type: "Action.Execute", verb, data}}}` to the bot
 * endpoint when someone presses a card's button, with who (`from.aadObjectId`, the tenant in
 * `conversation.tenantId` or `channelData.tenant.id`), the activity's `id`, `channelId` and
 * `serviceUrl`. The body is not signed: the bearer token vouches for it (teams-tokens.ts). Pure.
 */

export interface TeamsPress {
  action: ChatAction;
  user: ChatUser;
  /** Unique per activity (with its conversation): a second request with the same is a replay. */
  activityId: string;
  conversationId: string | null;
  /** `msteams`: the channel a signing key must be endorsed for. */
  channelId: string;
  /** Where the activity came from: the token's `serviceUrl` claim must say the same. */
  serviceUrl: string;
}

export function readTeamsPress(body: unknown): TeamsPress | { problem: string } {
  if (field(body, 'type') !== 'invoke' || field(body, 'name') !== 'adaptiveCard/action') {
    return { problem: 'Warden’s bot takes adaptiveCard/action invokes only' };
  }
  const action = path(body, 'value', 'action');
  if (field(action, 'type') !== 'Action.Execute') {
    return { problem: 'the invoke is not an Action.Execute' };
  }
  const chatAction = readChatAction(field(action, 'verb'), field(action, 'data'));
  if (!chatAction) return { problem: 'the action is not one of Warden’s buttons' };
  const user = readChatUser(
    'teams',
    path(body, 'conversation', 'tenantId') ?? path(body, 'channelData', 'tenant', 'id'),
    path(body, 'from', 'aadObjectId'),
    path(body, 'from', 'name'),
  );
  if (!user) return { problem: 'the activity names no Teams tenant and user' };
  const activityId = field(body, 'id');
  const channelId = field(body, 'channelId');
  const serviceUrl = field(body, 'serviceUrl');
  if (typeof activityId !== 'string' || activityId.length === 0 || activityId.length > 500) {
    return { problem: 'the activity has no id' };
  }
  if (typeof channelId !== 'string' || typeof serviceUrl !== 'string') {
    return { problem: 'the activity names no channel or service URL' };
  }
  const conversationId = path(body, 'conversation', 'id');
  return {
    action: chatAction,
    user,
    activityId,
    conversationId: typeof conversationId === 'string' ? conversationId : null,
    channelId,
    serviceUrl,
  };
}
