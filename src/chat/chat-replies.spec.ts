import { slackUpdate, teamsOutcomeCard } from './chat-replies';
import type { ChatOutcome } from './chat-decisions.service';

const approved = { decided: 'approved', by: 'bea', approval: {} } as unknown as ChatOutcome;
const refused: ChatOutcome = {
  refused: 'unmapped',
  message: 'Warden does not know who you are in Teams yet',
  linkUrl: 'https://warden.example.com/console/chat-link#code',
};

describe('what a chat shows after a press (chat-replies.ts)', () => {
  it('replaces a decided Slack message: its decision buttons gone, the links kept, the decision added', () => {
    const original = [
      { type: 'header', text: { type: 'plain_text', text: 'Approval needed: sap-orders' } },
      {
        type: 'actions',
        elements: [
          { type: 'button', action_id: 'warden.approve', value: '{}' },
          { type: 'button', action_id: 'warden.reject', value: '{}' },
          { type: 'button', action_id: 'warden.open.0', url: 'https://warden.example.com/x' },
        ],
      },
    ];
    const update = slackUpdate(approved, original);
    expect(update).toMatchObject({ replace_original: true });
    expect(update.blocks).toEqual([
      original[0],
      { type: 'actions', elements: [original[1].elements![2]] },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: 'Approved by bea in Slack. Nothing is sent until an operator resumes the run; Warden then sends this write once, only onto the screen it was held on.',
        },
      },
    ]);
  });

  it('tells only the presser why nothing was decided in Slack', () => {
    expect(slackUpdate(refused, [])).toEqual({
      response_type: 'ephemeral',
      replace_original: false,
      text: 'Not decided: Warden does not know who you are in Teams yet.',
    });
  });

  it('answers Teams with a card that offers the link where the account is not linked', () => {
    const card = teamsOutcomeCard(refused, 'https://warden.example.com/console/approvals/1');
    expect(card.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Link your Teams account', url: refused.linkUrl },
      {
        type: 'Action.OpenUrl',
        title: 'Open in Warden',
        url: 'https://warden.example.com/console/approvals/1',
      },
    ]);
    expect(JSON.stringify(teamsOutcomeCard(approved, 'x'))).toContain('Approved by bea in Teams');
  });
});
