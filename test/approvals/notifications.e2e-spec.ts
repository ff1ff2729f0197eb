import { randomBytes } from 'node:crypto';
import {
  type MailReceiver,
  type Receiver,
  startMailReceiver,
  startReceiver,
} from '../support/receivers';
import { isEnded, startStack, Stack } from '../support/stack';
import { SCRAPE_TOKEN } from '../support/api';
import { until } from '../support/until';

/**
 * Notifications (docs/security.md, docs/notifications.md) against real receivers on loopback: an HTTPS
 * receiver that checks the webhook signature and takes Slack- and Teams-shaped posts, and an SMTP
 * server. A write held by the sim screen host is announced; so are its decision and the run's end.
 */

const SAVE_SCRIPT = {
  steps: [
    { action: { action: 'click', element: { role: 'button', name: 'Save' } } },
    { action: { action: 'done', summary: 'saved' } },
  ],
};
const TYPE_SCRIPT = {
  steps: [
    { action: { action: 'type', text: 'Confidential 4711' } },
    { action: { action: 'done', summary: 'typed' } },
  ],
};

/** Block Kit (api.slack.com/reference/block-kit/blocks): the blocks and fields this payload may use. */
function expectBlockKit(payload: any): void {
  expect(typeof payload.text).toBe('string');
  expect(Array.isArray(payload.blocks)).toBe(true);
  expect(payload.blocks.length).toBeGreaterThan(0);
  expect(payload.blocks.length).toBeLessThanOrEqual(50);
  const textObject = (t: any, types = ['plain_text', 'mrkdwn']) => {
    expect(types).toContain(t.type);
    expect(typeof t.text).toBe('string');
    expect(t.text.length).toBeGreaterThan(0);
    expect(t.text.length).toBeLessThanOrEqual(3000);
  };
  for (const block of payload.blocks) {
    expect(['header', 'section', 'context', 'actions', 'divider']).toContain(block.type);
    switch (block.type) {
      case 'header':
        textObject(block.text, ['plain_text']);
        expect(block.text.text.length).toBeLessThanOrEqual(150);
        break;
      case 'section':
        expect(block.text !== undefined || block.fields !== undefined).toBe(true);
        if (block.text) textObject(block.text);
        if (block.fields) {
          expect(block.fields.length).toBeLessThanOrEqual(10);
          for (const f of block.fields) {
            textObject(f);
            expect(f.text.length).toBeLessThanOrEqual(2000);
          }
        }
        break;
      case 'context':
        expect(block.elements.length).toBeLessThanOrEqual(10);
        for (const e of block.elements) textObject(e);
        break;
      case 'actions':
        expect(block.elements.length).toBeLessThanOrEqual(25);
        for (const e of block.elements) {
          expect(e.type).toBe('button');
          textObject(e.text, ['plain_text']);
          expect(e.url).toMatch(/^https?:\/\//);
        }
        break;
    }
  }
}

/** A Teams incoming-webhook message with one Adaptive Card (adaptivecards.io/explorer). */
function expectAdaptiveCard(payload: any): any {
  expect(payload.type).toBe('message');
  expect(payload.attachments).toHaveLength(1);
  const [attachment] = payload.attachments;
  expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive');
  const card = attachment.content;
  expect(card.type).toBe('AdaptiveCard');
  expect(card.version).toMatch(/^1\.[0-6]$/);
  expect(Array.isArray(card.body)).toBe(true);
  for (const element of card.body) {
    expect(['TextBlock', 'FactSet', 'ColumnSet', 'Container']).toContain(element.type);
    if (element.type === 'TextBlock') expect(typeof element.text).toBe('string');
    if (element.type === 'FactSet') {
      for (const fact of element.facts) {
        expect(typeof fact.title).toBe('string');
        expect(typeof fact.value).toBe('string');
      }
    }
  }
  for (const action of card.actions ?? []) {
    expect(action.type).toBe('Action.OpenUrl');
    expect(action.url).toMatch(/^https?:\/\//);
  }
  return card;
}

describe('notifications', () => {
  let stack: Stack;
  let receiver: Receiver;
  let mail: MailReceiver;
  /** The mails received, one per Message-ID. */
  const messages = () =>
    mail.mails.filter((m, i) => mail.mails.findIndex((o) => o.messageId === m.messageId) === i);
  const unique = () => randomBytes(4).toString('hex').toUpperCase();
  const secretEnv = `ACME_HOOK_SECRET_${unique()}`;
  const slackEnv = `ACME_SLACK_URL_${unique()}`;
  const teamsEnv = `ACME_TEAMS_URL_${unique()}`;
  const ungrantedEnv = `ACME_TEAMS_UNGRANTED_${unique()}`;
  const secret = randomBytes(24).toString('hex');

  const deliveries = async (query = '') => {
    const r = await stack.api.request('GET', `/api/admin/deliveries${query}`, {
      token: stack.tokens.admin,
    });
    expect(r.status).toBe(200);
    return r.body as { items: any[]; next_cursor: string | null };
  };
  const deliveriesOf = async (runId: string) => (await deliveries(`?run_id=${runId}`)).items;
  /** Polls until every delivery of the run about `event` has left pending. */
  const settled = async (runId: string, event: string, count: number, ms = 20_000) => {
    let last: any[] = [];
    return until(
      `deliveries of ${event} settled`,
      async () => {
        last = (await deliveriesOf(runId)).filter((d) => d.event === event);
        return last.length === count && last.every((d) => d.status !== 'pending') && last;
      },
      { ms, seen: () => last },
    );
  };
  const reject = async (runId: string) => {
    const held = await stack.waitFor(runId, (r) => r.status === 'awaiting_approval');
    const r = await stack.api.request('POST', `/api/approvals/${held.pending_approval.id}/reject`, {
      token: stack.tokens.approver,
      json: { comment: 'not now' },
    });
    expect(r.status).toBe(200);
    await stack.waitFor(runId, isEnded);
  };

  beforeAll(async () => {
    receiver = await startReceiver(() => secret);
    mail = await startMailReceiver();
    process.env[secretEnv] = secret;
    process.env[slackEnv] = `${receiver.url}/slack/T000/B000/${unique()}`;
    process.env[teamsEnv] = `${receiver.url}/teams/workflows/${unique()}`;
    process.env[ungrantedEnv] = `${receiver.url}/ungranted`;
    stack = await startStack({
      env: {
        NOTIFY_CA_FILE: receiver.certPath,
        NOTIFY_BACKOFF_MS: '100',
        NOTIFY_TIMEOUT_MS: '2000',
        SMTP_URL: mail.url,
        SMTP_FROM: 'Warden <warden@example.test>',
        PUBLIC_URL: 'https://warden.example.test',
      },
    });
    // The operator grants each channel's secret to the receiver's origin; ungrantedEnv stays ungranted.
    for (const env of [secretEnv, slackEnv, teamsEnv]) await stack.grant(env, receiver.url);
  });

  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
    await mail?.close();
    for (const env of [secretEnv, slackEnv, teamsEnv, ungrantedEnv]) delete process.env[env];
  });

  it('tells every channel of a held write, its decision and the run end; an ungranted one gets nothing', async () => {
    await stack.configure({
      planner: await stack.planner(SAVE_SCRIPT),
      notify: [
        { kind: 'webhook', url: `${receiver.url}/hook/held`, secret_env: secretEnv },
        { kind: 'slack', url_env: slackEnv },
        { kind: 'teams', url_env: teamsEnv },
        { kind: 'email', to: ['sap-approvers@example.test'] },
        { kind: 'teams', url_env: ungrantedEnv },
      ],
    });
    const run = await stack.start('change order 4711: delivery date');
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval');
    const approvalId = held.pending_approval.id as string;
    const link = `https://warden.example.test/console/approvals/${approvalId}`;

    const heldDeliveries = await settled(run.id, 'held', 5);
    const byKind = (kind: string, status = 'delivered') =>
      heldDeliveries.filter((d) => d.channel.kind === kind && d.status === status);
    expect(byKind('webhook')).toHaveLength(1);
    expect(byKind('slack')).toHaveLength(1);
    expect(byKind('teams')).toHaveLength(1);
    expect(byKind('email')).toHaveLength(1);
    const [refused] = byKind('teams', 'not_granted');
    expect(refused.attempts).toBe(1);
    expect(refused.last_error).toContain(`secrets grant --tenant acme --env ${ungrantedEnv}`);
    expect(refused.channel).toEqual({ kind: 'teams', to: `$${ungrantedEnv}` });
    expect(receiver.on('/ungranted')).toHaveLength(0);

    // The webhook: signed, verified by the receiver, naming what the approver needs.
    const [hook] = receiver.on('/hook/held');
    expect(hook.verdict).toEqual({ ok: true });
    expect(hook.headers['x-warden-event']).toBe('held');
    const body = JSON.parse(hook.body);
    expect(body).toMatchObject({
      event: 'held',
      tenant: 'acme',
      agent: 'sap-orders',
      link,
      run: { id: run.id, goal: 'change order 4711: delivery date' },
      approval: { id: approvalId, step: 1, action: { action: 'click', target: 'Save' } },
    });
    expect(body.approval.why).toContain('Save');
    expect(Date.parse(body.approval.expires_at)).toBeGreaterThan(Date.now());
    expect(body.screen_link).toBeNull();

    // Slack: Block Kit, with the link as a button.
    const slack = receiver.received.find((r) => r.path.startsWith('/slack/'))!;
    const blocks = JSON.parse(slack.body);
    expectBlockKit(blocks);
    expect(slack.body).toContain(link);
    expect(slack.body).toContain('change order 4711');

    // Teams: one Adaptive Card with the facts and an Open action.
    const teams = receiver.received.find((r) => r.path.startsWith('/teams/'))!;
    const card = expectAdaptiveCard(JSON.parse(teams.body));
    expect(card.actions[0].url).toBe(link);
    const facts = card.body.find((b: any) => b.type === 'FactSet').facts;
    expect(facts.map((f: any) => f.title)).toEqual([
      'Agent',
      'Goal',
      'Action',
      'Why',
      'Waits until',
    ]);

    // E-mail: to the configured recipient, from the deployment's sender. A try after a lost answer
    // (a timeout on a loaded machine) may bring the mail twice, as the same message.
    expect(messages()).toHaveLength(1);
    const [m] = messages();
    expect(m.messageId).toMatch(/^<delivery-[0-9a-f-]{36}@example\.test>$/);
    expect(m.envelopeTo).toEqual(['sap-approvers@example.test']);
    expect(m.from?.text).toContain('warden@example.test');
    expect(m.subject).toBe('Approval needed: sap-orders');
    expect(m.text).toContain(link);
    expect(m.text).toContain('click “Save”');

    // Rejected: the decision and the run's end reach every granted channel too.
    await reject(run.id);
    const decided = await settled(run.id, 'decided', 5);
    const ended = await settled(run.id, 'run_ended', 5);
    expect(decided.filter((d) => d.status === 'delivered')).toHaveLength(4);
    expect(ended.filter((d) => d.status === 'delivered')).toHaveLength(4);
    const events = receiver.on('/hook/held').map((r) => [JSON.parse(r.body).event, r.verdict?.ok]);
    expect(events).toEqual([
      ['held', true],
      ['decided', true],
      ['run_ended', true],
    ]);
    const end = JSON.parse(receiver.on('/hook/held')[2].body);
    expect(end).toMatchObject({ status: 'stopped', end_reason: 'rejected' });
    expect(end.link).toBe(`https://warden.example.test/console/runs/${run.id}`);
    expect(messages().map((x) => x.subject)).toEqual([
      'Approval needed: sap-orders',
      'Write rejected: sap-orders',
      'Run stopped: sap-orders',
    ]);
  });

  it('leaves typed text out unless the agent allows it', async () => {
    await stack.configure({
      planner: await stack.planner(TYPE_SCRIPT),
      notify: [{ kind: 'webhook', url: `${receiver.url}/hook/typed`, secret_env: secretEnv }],
    });
    const run = await stack.start();
    await settled(run.id, 'held', 1);
    const [hook] = receiver.on('/hook/typed');
    expect(hook.body).not.toContain('Confidential');
    expect(JSON.parse(hook.body).approval.action).toEqual({ action: 'type', characters: 17 });
    expect(JSON.parse(hook.body).approval.action_words).toBe('type typed text (17 characters)');
    await reject(run.id);

    await stack.configure({
      planner: await stack.planner(TYPE_SCRIPT),
      notify: [{ kind: 'webhook', url: `${receiver.url}/hook/typed-shown`, secret_env: secretEnv }],
      notify_include_screen: true,
    });
    const shown = await stack.start();
    await settled(shown.id, 'held', 1);
    const [allowed] = receiver.on('/hook/typed-shown');
    expect(JSON.parse(allowed.body).approval.action).toEqual({
      action: 'type',
      text: 'Confidential 4711',
    });
    expect(JSON.parse(allowed.body).screen_link).toMatch(/\/steps\/1\/screen$/);
    await reject(shown.id);
  });

  it('tries a failing receiver again with backoff: delivered once, after 4 attempts', async () => {
    await stack.configure({
      planner: await stack.planner(SAVE_SCRIPT),
      notify: [{ kind: 'webhook', url: `${receiver.url}/flaky/1`, secret_env: secretEnv }],
    });
    const run = await stack.start();
    const [delivery] = await settled(run.id, 'held', 1);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 4, last_error: 'HTTP 503' });
    const tries = receiver.on('/flaky/1');
    expect(tries).toHaveLength(4);
    // Every try is signed afresh, and each waits at least its backoff (100, 200, 400 ms; a loaded
    // machine only makes a gap longer, so the lower bounds are what the backoff promises).
    expect(tries.every((t) => t.verdict?.ok)).toBe(true);
    const gaps = tries.slice(1).map((t, i) => t.at - tries[i].at);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(100 * 2 ** i - 1));
    // The receiver's answer is never kept.
    expect(JSON.stringify(await deliveries())).not.toContain('receiver-secret-error-page');
    await reject(run.id);
  });

  it('a hanging receiver does not hold up the run', async () => {
    await stack.configure({
      planner: await stack.planner(SAVE_SCRIPT),
      notify: [{ kind: 'webhook', url: `${receiver.url}/hang/1`, secret_env: secretEnv }],
    });
    const run = await stack.start();
    await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval');
    const [delivery] = (await deliveriesOf(run.id)).filter((d) => d.event === 'held');
    expect(delivery.status).toBe('pending');
    // The run moves on (rejected and ended) while the receiver still hangs.
    await reject(run.id);
    const after = (await deliveriesOf(run.id)).find((d) => d.event === 'held');
    expect(after.status).toBe('pending');
    // The timeout (2 s) cut the first try off; it is being tried again.
    await new Promise((r) => setTimeout(r, 2500));
    const later = (await deliveriesOf(run.id)).find((d) => d.event === 'held');
    expect(later).toMatchObject({ status: 'pending', last_error: 'timeout' });
    expect(later.attempts).toBeGreaterThanOrEqual(2);
    // The lag shows in the deployment's metrics.
    const scrape = (await stack.api.request('GET', '/metrics', { token: SCRAPE_TOKEN })).text;
    expect(
      Number(/^warden_notification_deliveries_pending\{tenant="acme"\} (\d+)$/m.exec(scrape)?.[1]),
    ).toBeGreaterThanOrEqual(1);
    expect(
      Number(/^warden_notification_lag_seconds\{tenant="acme"\} ([\d.]+)$/m.exec(scrape)?.[1]),
    ).toBeGreaterThanOrEqual(2);
  });

  it('re-queues a pending delivery whose job Redis lost (the reconciler)', async () => {
    // A delivery PostgreSQL says is pending, untouched for ten minutes, with no job in Redis.
    const message = { event: 'held', tenant: 'acme', agent: 'sap-orders', run_id: null };
    const [row] = await stack.api.db.sql<{ id: string }>(
      `INSERT INTO deliveries (tenant, agent, event, channel_kind, channel, message, status, updated_at)
       VALUES ('acme', 'sap-orders', 'held', 'webhook', $1, $2, 'pending', now() - interval '10 minutes')
       RETURNING id`,
      [
        JSON.stringify({
          kind: 'webhook',
          url: `${receiver.url}/hook/lost`,
          secret_env: secretEnv,
        }),
        JSON.stringify({ ...message, facts: [], details: {} }),
      ],
    );
    const deadline = Date.now() + 10_000;
    let status = 'pending';
    while (status === 'pending' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      [{ status }] = await stack.api.db.sql<{ status: string }>(
        'SELECT status FROM deliveries WHERE id = $1',
        [row.id],
      );
    }
    expect(status).toBe('delivered');
    const [lost] = receiver.on('/hook/lost');
    expect(lost.verdict).toEqual({ ok: true });
    expect(JSON.parse(lost.body).delivery_id).toBe(row.id);
  });

  it('lists deliveries for computer_use.admin only, in pages, newest first', async () => {
    const all = await deliveries('?limit=200');
    expect(all.items.length).toBeGreaterThan(5);
    const first = await deliveries('?limit=2');
    expect(first.items).toEqual(all.items.slice(0, 2));
    const second = await deliveries(`?limit=2&cursor=${first.next_cursor}`);
    expect(second.items).toEqual(all.items.slice(2, 4));
    const refused = await deliveries('?status=not_granted');
    expect(refused.items.every((d) => d.status === 'not_granted')).toBe(true);
    expect(JSON.stringify(all)).not.toContain(secret);
    expect(JSON.stringify(all)).not.toContain('/slack/T000');
    for (const token of [stack.tokens.operator, stack.tokens.approver]) {
      const r = await stack.api.request('GET', '/api/admin/deliveries', { token });
      expect(r.status).toBe(403);
    }
    const other = await stack.api.request('GET', '/api/admin/deliveries', {
      token: stack.tokens.other,
    });
    expect(other.body.items).toEqual([]);
  });

  // Last: widening the approvers back would be a weakening for the tests after it.
  it('tells the channels when a held write is reminded of and escalated', async () => {
    await stack.configure({
      planner: await stack.planner(SAVE_SCRIPT),
      remind_after_seconds: 1,
      escalate_after_seconds: 2,
      escalate_to: ['group:finance-heads'],
      approvers: ['subject:bob'],
      reason: 'a short escalation for the test',
      notify: [{ kind: 'webhook', url: `${receiver.url}/hook/timers`, secret_env: secretEnv }],
    });
    const run = await stack.start('change order 4711: delivery date');
    await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval');
    const [reminded] = await settled(run.id, 'reminder', 1);
    const [escalated] = await settled(run.id, 'escalated', 1);
    expect([reminded.status, escalated.status]).toEqual(['delivered', 'delivered']);
    const bodies = receiver
      .on('/hook/timers')
      .map((r) => ({ ...JSON.parse(r.body), ok: r.verdict?.ok }));
    expect(bodies.map((b) => [b.event, b.ok])).toEqual(
      expect.arrayContaining([
        ['held', true],
        ['reminder', true],
        ['escalated', true],
      ]),
    );
    expect(JSON.stringify(bodies.find((b) => b.event === 'escalated'))).toContain('finance-heads');
    // Each names the run by its goal and the approval, read with the approval when it is sent.
    for (const event of ['reminder', 'escalated']) {
      expect(bodies.find((b) => b.event === event)).toMatchObject({
        run: { id: run.id, goal: 'change order 4711: delivery date' },
        approval: { step: 1, action: { action: 'click', target: 'Save' } },
      });
    }
    await reject(run.id);
  });
});
