import { slackPayload, teamsPayload } from './channel-payloads';
import { approveInChatStops } from './chat-buttons';
import type { ApprovalFacts, NotifyEvent } from './notify-event';
import { renderMessage, type RenderContext } from './render-message';

const run = { id: '00000000-0000-4000-8000-000000000001', goal: 'change order 4711' };
const click: ApprovalFacts = {
  id: '00000000-0000-4000-8000-0000000000a1',
  step: 3,
  action: { action: 'click', x: 266, y: 66, target: 'Save' },
  why: 'Save commits the order',
  expires_at: '2026-12-01T11:00:00.000Z',
  screen_sha256: 'ab'.repeat(32),
  changes: [
    {
      field: 'Req. Deliv. Date',
      before: '15.03.2026',
      after: '30.04.2026',
      read_back: '30.04.2026',
    },
  ],
};
const typing: ApprovalFacts = {
  ...click,
  action: { action: 'type', text: 'secret' },
  changes: null,
};
const context: RenderContext = {
  tenant: 'acme',
  agent: 'sap-orders',
  includeScreen: false,
  baseUrl: 'https://warden.example.com',
  now: new Date('2026-12-01T10:00:00.000Z'),
};

/** The Slack buttons of a payload, by action_id. */
function slackButtons(payload: Record<string, unknown>): Record<string, any> {
  const blocks = payload.blocks as Array<{ type: string; elements?: any[] }>;
  const actions = blocks.find((b) => b.type === 'actions')!.elements!;
  return Object.fromEntries(actions.map((e) => [e.action_id, e]));
}

describe('deciding from a chat message (chat-buttons.ts)', () => {
  it('offers Approve only where the message shows what will be sent; Reject always', () => {
    expect(approveInChatStops(click, true)).toBeNull();
    expect(approveInChatStops({ ...click, changes: null }, false)).toBeNull();
    expect(approveInChatStops(click, false)).toMatch(/leaves out the values of its change list/);
    expect(approveInChatStops(typing, false)).toMatch(/leaves out the typed text/);
    expect(approveInChatStops(typing, true)).toBeNull();
    // A change list of navigation only stores nothing: there is nothing to leave out.
    expect(
      approveInChatStops(
        { ...click, changes: [{ ...click.changes![0], kind: 'navigation' }] },
        false,
      ),
    ).toBeNull();
  });

  it('carries the approval and its screen in Slack buttons, only on a channel that takes decisions', () => {
    const held: NotifyEvent = { kind: 'held', run, approval: click };
    const shown = renderMessage(held, { ...context, includeScreen: true });
    expect(shown.decide).toEqual({
      approval_id: click.id,
      screen_sha256: click.screen_sha256,
      approve: true,
    });
    const buttons = slackButtons(slackPayload(shown, { decide: true }));
    expect(Object.keys(buttons)).toEqual([
      'warden.approve',
      'warden.reject',
      'warden.open.0',
      'warden.open.1',
    ]);
    expect(JSON.parse(buttons['warden.approve'].value)).toEqual({
      approval_id: click.id,
      screen_sha256: click.screen_sha256,
    });
    expect(buttons['warden.reject'].style).toBe('danger');
    expect(buttons['warden.approve'].confirm.text.text).toMatch(
      /Approving sends nothing by itself/,
    );
    // A channel without a signing secret: links only.
    expect(Object.keys(slackButtons(slackPayload(shown)))).toEqual([
      'warden.open.0',
      'warden.open.1',
    ]);

    const withheld = renderMessage(held, context);
    expect(withheld.decide?.approve).toBe(false);
    const only = slackButtons(slackPayload(withheld, { decide: true }));
    expect(Object.keys(only)).toEqual(['warden.reject', 'warden.open.0']);
    expect(JSON.stringify(slackPayload(withheld, { decide: true }))).toContain(
      'To approve, open it in Warden',
    );
  });

  it('lists a commit’s changes, with values only when the agent lets text out', () => {
    const held: NotifyEvent = { kind: 'held', run, approval: click };
    expect(renderMessage(held, { ...context, includeScreen: true }).facts).toContainEqual({
      name: 'Changes',
      value: 'Req. Deliv. Date: "15.03.2026" → "30.04.2026"',
    });
    const hidden = renderMessage(held, context);
    expect(hidden.facts).toContainEqual({
      name: 'Changes',
      value: '1 change (values left out: open Warden to see them)',
    });
    expect(JSON.stringify(hidden)).not.toContain('30.04.2026');
  });

  it('puts no buttons on a decision or a run end', () => {
    const decided: NotifyEvent = {
      kind: 'decided',
      run,
      approval: click,
      decision: 'approved',
      by: 'bea',
      via: 'slack',
      comment: null,
    };
    const m = renderMessage(decided, context);
    expect(m.decide).toBeNull();
    expect(m.facts).toContainEqual({ name: 'Decision', value: 'approved by bea (in Slack)' });
    expect(Object.keys(slackButtons(slackPayload(m, { decide: true })))).toEqual(['warden.open.0']);
  });

  it('makes Teams cards with Action.Execute (card 1.5) where the bot takes decisions', () => {
    const m = renderMessage(
      { kind: 'held', run, approval: click },
      { ...context, includeScreen: true },
    );
    const card = (teamsPayload(m, { decide: true }).attachments as any[])[0].content;
    expect(card.version).toBe('1.5');
    expect(card.actions.slice(0, 2)).toEqual([
      {
        type: 'Action.Execute',
        title: 'Approve',
        verb: 'approve',
        style: 'positive',
        data: { approval_id: click.id, screen_sha256: click.screen_sha256 },
      },
      {
        type: 'Action.Execute',
        title: 'Reject',
        verb: 'reject',
        style: 'destructive',
        data: { approval_id: click.id, screen_sha256: click.screen_sha256 },
      },
    ]);
    const plain = (teamsPayload(m).attachments as any[])[0].content;
    expect(plain.version).toBe('1.4');
    expect(plain.actions.map((a: { type: string }) => a.type)).toEqual([
      'Action.OpenUrl',
      'Action.OpenUrl',
    ]);
  });
});
