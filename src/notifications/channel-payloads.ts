import { chatActionData, SLACK_ACTION_IDS } from './chat-buttons';
import type { NotificationMessage } from './render-message';

/**
 * A message as each channel takes it: Slack Block Kit, a Microsoft Teams Adaptive Card, an e-mail,
 * a signed webhook's JSON. Pure; the shapes are checked in test/approvals/notifications.e2e-spec.ts.
 */

/** Slack's limits: a header's text 150 characters, a section field 2000, at most 10 fields. */
const SLACK = { header: 150, field: 2000, fields: 10, text: 3000 };

/** `&`, `<` and `>` are Slack's control characters in mrkdwn. */
function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A message as Slack takes it. `decide`: the channel takes decisions (its Slack app's
 * interactivity reaches Warden, docs/notifications.md), so a message about a waiting write carries
 * Reject, and Approve where it shows what will be sent (chat-buttons.ts).
 */
export function slackPayload(
  m: NotificationMessage,
  options: { decide?: boolean } = {},
): Record<string, unknown> {
  const fields = m.facts.slice(0, SLACK.fields).map((f) => ({
    type: 'mrkdwn',
    text: cut(`*${slackEscape(f.name)}*\n${slackEscape(f.value)}`, SLACK.field),
  }));
  const links: Array<Record<string, unknown>> = [{ text: 'Open in Warden', url: m.link }];
  if (m.screen_link) links.push({ text: 'Screen', url: m.screen_link });
  const decide = options.decide && m.decide ? m.decide : null;
  const value = decide ? JSON.stringify(chatActionData(decide)) : '';
  const confirm = (verb: string, text: string) => ({
    title: { type: 'plain_text', text: `${verb} this write?` },
    text: { type: 'plain_text', text },
    confirm: { type: 'plain_text', text: verb },
    deny: { type: 'plain_text', text: 'Cancel' },
  });
  const buttons: Array<Record<string, unknown>> = [];
  if (decide?.approve) {
    buttons.push({
      type: 'button',
      action_id: SLACK_ACTION_IDS.approve,
      text: { type: 'plain_text', text: 'Approve' },
      style: 'primary',
      value,
      confirm: confirm(
        'Approve',
        'Approving sends nothing by itself: an operator resumes the run, and Warden sends the write once, only onto the screen it was held on.',
      ),
    });
  }
  if (decide) {
    buttons.push({
      type: 'button',
      action_id: SLACK_ACTION_IDS.reject,
      text: { type: 'plain_text', text: 'Reject' },
      style: 'danger',
      value,
      confirm: confirm('Reject', 'Nothing is sent, and the run stops.'),
    });
  }
  const notes =
    decide && !decide.approve
      ? [
          {
            type: 'context',
            elements: [
              {
                type: 'mrkdwn',
                text: 'To approve, open it in Warden: this message leaves out what would be typed or stored.',
              },
            ],
          },
        ]
      : [];
  return {
    text: cut(`${m.title}: ${m.text}`, SLACK.text),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: cut(m.title, SLACK.header) } },
      { type: 'section', text: { type: 'mrkdwn', text: cut(slackEscape(m.text), SLACK.text) } },
      { type: 'section', fields },
      {
        type: 'actions',
        elements: [
          ...buttons,
          ...links.map((l, i) => ({
            type: 'button',
            action_id: `${SLACK_ACTION_IDS.open}.${i}`,
            text: { type: 'plain_text', text: l.text },
            url: l.url,
          })),
        ],
      },
      ...notes,
      {
        type: 'context',
        elements: [
          { type: 'mrkdwn', text: slackEscape(`Warden · ${m.event} · run ${m.run_id} · ${m.at}`) },
        ],
      },
    ],
  };
}

/**
 * A message as Teams takes it: an Adaptive Card. `decide`: the channel's bot takes decisions
 * (docs/notifications.md), so a card about a waiting write carries Reject, and Approve where it
 * shows what will be sent, as `Action.Execute` (Universal Actions, card version 1.5).
 */
export function teamsPayload(
  m: NotificationMessage,
  options: { decide?: boolean } = {},
): Record<string, unknown> {
  const card = teamsCard(m, options.decide && m.decide ? m.decide : null);
  return {
    type: 'message',
    attachments: [
      { contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card },
    ],
  };
}

/** The Adaptive Card of a message, with Action.Execute buttons when `decide` is given. */
export function teamsCard(
  m: NotificationMessage,
  decide: NotificationMessage['decide'] | null,
): Record<string, unknown> {
  const actions: Array<Record<string, unknown>> = [];
  if (decide?.approve) {
    actions.push({
      type: 'Action.Execute',
      title: 'Approve',
      verb: 'approve',
      style: 'positive',
      data: chatActionData(decide),
    });
  }
  if (decide) {
    actions.push({
      type: 'Action.Execute',
      title: 'Reject',
      verb: 'reject',
      style: 'destructive',
      data: chatActionData(decide),
    });
  }
  actions.push({ type: 'Action.OpenUrl', title: 'Open in Warden', url: m.link });
  if (m.screen_link) actions.push({ type: 'Action.OpenUrl', title: 'Screen', url: m.screen_link });
  const note =
    decide && !decide.approve
      ? [
          {
            type: 'TextBlock',
            text: 'To approve, open it in Warden: this card leaves out what would be typed or stored.',
            wrap: true,
            size: 'Small',
          },
        ]
      : [];
  return {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: decide ? '1.5' : '1.4',
    body: [
      { type: 'TextBlock', text: m.title, weight: 'Bolder', size: 'Medium', wrap: true },
      { type: 'TextBlock', text: m.text, wrap: true },
      { type: 'FactSet', facts: m.facts.map((f) => ({ title: f.name, value: f.value })) },
      ...note,
      {
        type: 'TextBlock',
        text: `Warden · ${m.event} · run ${m.run_id}`,
        isSubtle: true,
        size: 'Small',
        wrap: true,
      },
    ],
    actions,
  };
}

export interface EmailContent {
  subject: string;
  text: string;
}

export function emailContent(m: NotificationMessage): EmailContent {
  const width = Math.max(...m.facts.map((f) => f.name.length));
  const lines = [
    m.text,
    '',
    ...m.facts.map((f) => `${`${f.name}:`.padEnd(width + 2)}${f.value}`),
    '',
    `Open in Warden: ${m.link}`,
    ...(m.screen_link ? [`Screen: ${m.screen_link}`] : []),
    '',
    `-- Warden (${m.event}, tenant ${m.tenant}, run ${m.run_id})`,
  ];
  // A subject is one line: a goal with a newline must not start a header of its own.
  return { subject: m.title.replace(/[\r\n]+/g, ' '), text: lines.join('\n') };
}

/** The body of a signed webhook: the message as data. */
export function webhookBody(m: NotificationMessage, deliveryId: string): string {
  return JSON.stringify({
    delivery_id: deliveryId,
    event: m.event,
    tenant: m.tenant,
    agent: m.agent,
    title: m.title,
    text: m.text,
    link: m.link,
    screen_link: m.screen_link,
    at: m.at,
    ...m.details,
  });
}
