import {
  anyObject,
  type ApiSchemas,
  record,
  schemaRef,
  text,
  textOrNull,
  time,
  uuid,
} from '../common/api-schema';

const kind = { type: 'string' as const, enum: ['slack', 'teams'] };

/** The chat API's answers (docs/api.md): links of chat accounts, and what Slack and Teams are told. */
export const CHAT_SCHEMAS: ApiSchemas = {
  ChatLink: record({
    id: uuid,
    kind,
    chat_team: text('the Slack team id, or the Teams (Entra) tenant id'),
    chat_user: text('the Slack user id, or the Teams user’s Entra object id'),
    chat_name: textOrNull('the name the chat gave when the code was made'),
    subject: text('the person it stands for: their subject at the identity provider'),
    linked_at: time(),
  }),
  ChatLinkList: record({ items: { type: 'array', items: schemaRef('ChatLink') } }),
  ChatLinkCode: record({
    kind,
    chat_team: text(),
    chat_user: text(),
    chat_name: textOrNull(),
    expires_at: time('after this the code links nothing'),
  }),
  SlackActionReply: record({
    outcome: { type: 'string', enum: ['approved', 'rejected', 'refused', 'ignored'] },
    refused: {
      type: 'string',
      enum: ['replayed', 'unmapped', 'no_sign_in', 'not_permitted', 'late', 'refused'],
      nullable: true,
      description: 'why nothing was decided; null when something was (or the press was a link’s)',
    },
    text: text('the outcome in words'),
    message_update: {
      type: 'string',
      enum: ['sent', 'not_granted', 'none'],
      description:
        'the message’s update through Slack’s response_url: sent, not granted as a destination of the tenant, or none asked for',
    },
  }),
  TeamsInvokeResponse: record({
    statusCode: { type: 'integer', enum: [200] },
    type: { type: 'string', enum: ['application/vnd.microsoft.card.adaptive'] },
    value: anyObject('the Adaptive Card the presser sees now: the decision, or why none'),
  }),
};
