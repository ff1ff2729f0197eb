import type { NotificationMessage } from './render-message';

/**
 * A message as each channel takes it: Slack Block Kit, a Microsoft Teams Adaptive Card, an e-mail,
 * a signed webhook's JSON. Pure; the shapes are checked in test/notifications.e2e-spec.ts.
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

export function slackPayload(m: NotificationMessage): Record<string, unknown> {
  const fields = m.facts.slice(0, SLACK.fields).map((f) => ({
    type: 'mrkdwn',
    text: cut(`*${slackEscape(f.name)}*\n${slackEscape(f.value)}`, SLACK.field),
  }));
  const links = [{ text: 'Open in Warden', url: m.link }];
  if (m.screen_link) links.push({ text: 'Screen', url: m.screen_link });
  return {
    text: cut(`${m.title}: ${m.text}`, SLACK.text),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: cut(m.title, SLACK.header) } },
      { type: 'section', text: { type: 'mrkdwn', text: cut(slackEscape(m.text), SLACK.text) } },
      { type: 'section', fields },
      {
        type: 'actions',
        elements: links.map((l) => ({
          type: 'button',
          text: { type: 'plain_text', text: l.text },
          url: l.url,
        })),
      },
      {
        type: 'context',
        elements: [
          { type: 'mrkdwn', text: slackEscape(`Warden · ${m.event} · run ${m.run_id} · ${m.at}`) },
        ],
      },
    ],
  };
}

export function teamsPayload(m: NotificationMessage): Record<string, unknown> {
  const actions = [{ type: 'Action.OpenUrl', title: 'Open in Warden', url: m.link }];
  if (m.screen_link) actions.push({ type: 'Action.OpenUrl', title: 'Screen', url: m.screen_link });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: m.title, weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'TextBlock', text: m.text, wrap: true },
            { type: 'FactSet', facts: m.facts.map((f) => ({ title: f.name, value: f.value })) },
            {
              type: 'TextBlock',
              text: `Warden · ${m.event} · run ${m.run_id}`,
              isSubtle: true,
              size: 'Small',
              wrap: true,
            },
          ],
          actions,
        },
      },
    ],
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
