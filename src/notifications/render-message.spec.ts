import { emailContent, slackPayload, teamsPayload, webhookBody } from './channel-payloads';
import type { NotifyEvent } from './notify-event';
import { renderMessage, type RenderContext } from './render-message';

const run = { id: '00000000-0000-4000-8000-000000000001', goal: 'change order 4711' };
const approval = {
  id: '00000000-0000-4000-8000-0000000000a1',
  step: 2,
  action: { action: 'type' as const, text: 'Müller GmbH\tsecret' },
  why: 'typing into a field is a write',
  expires_at: '2026-12-01T11:00:00.000Z',
  screen_sha256: 'ab'.repeat(32),
  changes: null,
};
const context: RenderContext = {
  tenant: 'acme',
  agent: 'sap-orders',
  includeScreen: false,
  baseUrl: 'https://warden.example.com/',
  now: new Date('2026-12-01T10:00:00.000Z'),
};
const held: NotifyEvent = { kind: 'held', run, approval };

describe('renderMessage', () => {
  it('names the agent, the goal, the action, the why, the wait and the console page', () => {
    const m = renderMessage(held, context);
    expect(m.title).toBe('Approval needed: sap-orders');
    expect(m.link).toBe(`https://warden.example.com/console/approvals/${approval.id}`);
    expect(m.facts).toEqual([
      { name: 'Agent', value: 'sap-orders' },
      { name: 'Goal', value: 'change order 4711' },
      { name: 'Action', value: 'step 2: type typed text (18 characters)' },
      { name: 'Why', value: 'typing into a field is a write' },
      { name: 'Waits until', value: '2026-12-01T11:00:00.000Z (60 minutes from now)' },
    ]);
    expect(m.screen_link).toBeNull();
  });

  it('carries no typed text anywhere unless the agent allows it', () => {
    const m = renderMessage(held, context);
    const everything = [
      JSON.stringify(m),
      JSON.stringify(slackPayload(m)),
      JSON.stringify(teamsPayload(m)),
      JSON.stringify(emailContent(m)),
      webhookBody(m, 'd1'),
    ];
    for (const text of everything) {
      expect(text).not.toContain('Müller');
      expect(text).not.toContain('secret');
    }
    expect(JSON.parse(webhookBody(m, 'd1')).approval.action).toEqual({
      action: 'type',
      characters: 18,
    });

    const allowed = renderMessage(held, { ...context, includeScreen: true });
    expect(allowed.facts[2].value).toBe('step 2: type "Müller GmbH\\tsecret"');
    expect(allowed.screen_link).toBe(
      `https://warden.example.com/api/computer-use/runs/${run.id}/steps/2/screen`,
    );
  });

  it('renders every event kind, the run end linking to the run', () => {
    const events: NotifyEvent[] = [
      { kind: 'decided', run, approval, decision: 'rejected', by: 'bob', comment: 'wrong order' },
      { kind: 'escalated', run, approval, to: ['sap-leads'] },
      { kind: 'reminder', run, approval, waiting_seconds: 900 },
      {
        kind: 'run_ended',
        run,
        status: 'succeeded',
        end_reason: 'done',
        summary: 'saved',
        steps: 3,
      },
    ];
    const titles = events.map((e) => renderMessage(e, context).title);
    expect(titles).toEqual([
      'Write rejected: sap-orders',
      'Approval escalated: sap-orders',
      'Still waiting for approval: sap-orders',
      'Run succeeded: sap-orders',
    ]);
    const ended = renderMessage(events[3], context);
    expect(ended.link).toBe(`https://warden.example.com/console/runs/${run.id}`);
    expect(ended.approval_id).toBeNull();
    expect(ended.text).toBe("sap-orders's run ended succeeded (done) after 3 steps.");
    expect(renderMessage(events[0], context).facts).toContainEqual({
      name: 'Decision',
      value: 'rejected by bob',
    });
  });

  it('keeps an e-mail subject to one line and escapes Slack mrkdwn', () => {
    const m = renderMessage(
      { ...held, run: { ...run, goal: 'a <b> & c' } },
      { ...context, agent: 'sap-orders' },
    );
    expect(JSON.stringify(slackPayload(m))).toContain('a &lt;b&gt; &amp; c');
    expect(emailContent({ ...m, title: 'one\r\ntwo' }).subject).toBe('one two');
  });
});
