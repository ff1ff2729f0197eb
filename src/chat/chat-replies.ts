import { SLACK_ACTION_IDS } from '../notifications/chat-buttons';
import { field } from './chat-action';
import type { ChatOutcome } from './chat-decisions.service';

/**
 * What a chat shows after a press (docs/notifications.md): who decided, or why nothing was
 * decided, in words; for Slack the message updated in place (its decision buttons gone, the
 * decision added) or a note only the presser sees; for Teams the card the invoke answers with. Pure.
 */

const CHAT_WORDS = { slack: 'Slack', teams: 'Teams' } as const;

export function outcomeInWords(outcome: ChatOutcome, kind: 'slack' | 'teams'): string {
  if ('refused' in outcome) return `Not decided: ${outcome.message}.`;
  const chat = CHAT_WORDS[kind];
  return outcome.decided === 'approved'
    ? `Approved by ${outcome.by} in ${chat}. Nothing is sent until an operator resumes the run; Warden then sends this write once, only onto the screen it was held on.`
    : `Rejected by ${outcome.by} in ${chat}. Nothing was sent; the run stopped.`;
}

/** `&`, `<` and `>` are Slack's control characters in mrkdwn. */
function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The body posted to Slack's `response_url`: a decision replaces the message (its blocks as Slack
 * sent them, Approve and Reject taken out, the decision added), so nobody presses again; a refusal
 * is a note to the presser alone, the message left as it was for the others.
 */
export function slackUpdate(
  outcome: ChatOutcome,
  original: unknown[] | null,
): Record<string, unknown> {
  const text = outcomeInWords(outcome, 'slack');
  if ('refused' in outcome) {
    return { response_type: 'ephemeral', replace_original: false, text };
  }
  const decisionIds: unknown[] = [SLACK_ACTION_IDS.approve, SLACK_ACTION_IDS.reject];
  const kept = (original ?? []).flatMap((block) => {
    if (field(block, 'type') !== 'actions') return [block];
    const elements = field(block, 'elements');
    const left = Array.isArray(elements)
      ? elements.filter((e) => !decisionIds.includes(field(e, 'action_id')))
      : [];
    return left.length > 0 ? [{ ...(block as object), elements: left }] : [];
  });
  return {
    replace_original: true,
    text,
    blocks: [...kept, { type: 'section', text: { type: 'mrkdwn', text: slackEscape(text) } }],
  };
}

/** The card a Teams invoke answers with: the outcome, and where to go next. */
export function teamsOutcomeCard(
  outcome: ChatOutcome,
  approvalLink: string,
): Record<string, unknown> {
  const text = outcomeInWords(outcome, 'teams');
  const actions: Array<Record<string, unknown>> = [];
  if ('refused' in outcome && outcome.linkUrl) {
    actions.push({
      type: 'Action.OpenUrl',
      title: 'Link your Teams account',
      url: outcome.linkUrl,
    });
  }
  actions.push({ type: 'Action.OpenUrl', title: 'Open in Warden', url: approvalLink });
  return {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.5',
    body: [
      {
        type: 'TextBlock',
        text: 'refused' in outcome ? 'Not decided' : `Write ${outcome.decided}`,
        weight: 'Bolder',
        size: 'Medium',
        wrap: true,
      },
      { type: 'TextBlock', text, wrap: true },
    ],
    actions,
  };
}
