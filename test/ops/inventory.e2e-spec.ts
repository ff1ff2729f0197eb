import { randomBytes } from 'node:crypto';
import {
  anthropicComputer,
  anthropicTool,
  type FakeProvider,
  startFakeProvider,
} from '../support/fake-provider';
import { sample } from '../support/prometheus-text';
import { isEnded, startStack, Stack } from '../support/stack';
import { SCRAPE_TOKEN } from '../support/api';

/**
 * The operations inventory and metrics, end to end: runs on the sim screen host by scripted
 * planners and a model planner (the fake provider), then what `GET /api/admin/inventory` and
 * `/metrics` say about them. Real API, worker, PostgreSQL, Redis and an HTTPS sim host.
 */

const COMMAND = { role: 'textbox', name: 'Command field' };
const ONE_WRITE = {
  steps: [
    { action: { action: 'click', element: COMMAND } },
    { step: 'the write', action: { action: 'type', text: '/nVA03' } },
    { action: { action: 'done', summary: 'typed' } },
  ],
};
const DONE = { steps: [{ action: { action: 'done', summary: 'nothing to do' } }] };
const GIVE_UP = { steps: [{ action: { action: 'fail', reason: 'the order is locked' } }] };

describe('inventory and operations metrics, end to end', () => {
  let stack: Stack;
  let fake: FakeProvider;
  const keyEnv = `WARDEN_TEST_MODEL_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;
  let scripted: { write: string; done: string; giveUp: string };
  const runs: Record<string, string[]> = {};

  const agentOn = (planner: unknown, extra: Record<string, unknown> = {}) => ({
    screen_url: stack.sim.url,
    screen_token_env: stack.sim.tokenEnv,
    screen_tls: { fingerprint_sha256: stack.sim.fingerprint },
    system: 'SAP GUI (sim)',
    planner,
    ...extra,
  });

  async function runOf(agent: string, decide?: 'approve' | 'reject') {
    const run = await stack.start('change order 4711', agent);
    (runs[agent] ??= []).push(run.id);
    if (decide === 'approve') await stack.approveAndResume(run.id);
    if (decide === 'reject') {
      const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval');
      const r = await stack.api.request(
        'POST',
        `/api/approvals/${held.pending_approval.id}/reject`,
        {
          token: stack.tokens.approver,
          json: { comment: 'not this one' },
        },
      );
      expect(r.status).toBe(200);
    }
    return stack.waitFor(run.id, isEnded);
  }

  beforeAll(async () => {
    process.env[keyEnv] = `sk-ant-test-${randomBytes(16).toString('hex')}`;
    fake = await startFakeProvider();
    stack = await startStack();
    await stack.grant(keyEnv, fake.url);
    scripted = {
      write: await stack.planner(ONE_WRITE),
      done: await stack.planner(DONE),
      giveUp: await stack.planner(GIVE_UP),
    };
    const r = await stack.api.request('PUT', '/api/admin/computer-use', {
      token: stack.tokens.weakener,
      json: {
        enabled: true,
        agents: {
          'sap-orders': agentOn(scripted.write),
          'sap-quick': agentOn(scripted.done),
          'sap-gives-up': agentOn(scripted.giveUp),
          'sap-model': agentOn({
            provider: 'anthropic',
            model: 'claude-sonnet-4-5',
            api_key_env: keyEnv,
            base_url: fake.url,
            price_per_mtok_in: 3,
            price_per_mtok_out: 15,
          }),
          // Never run: an agent with no runs has zeros and no rates, never made-up ones.
          'sap-idle': agentOn(scripted.done, {
            approve_at: 'commit',
            reason: 'SAP commits at Save; typing alone changes nothing',
            system: 'Green screen',
          }),
        },
      },
    });
    expect(r.status).toBe(200);
  });

  afterAll(async () => {
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  it('runs the agents to their ends', async () => {
    expect(await runOf('sap-orders', 'approve')).toMatchObject({
      status: 'completed',
      end_reason: 'done',
    });
    expect(await runOf('sap-orders', 'reject')).toMatchObject({
      status: 'stopped',
      end_reason: 'rejected',
    });
    expect(await runOf('sap-quick')).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(await runOf('sap-quick')).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(await runOf('sap-gives-up')).toMatchObject({ status: 'failed', end_reason: 'fail' });
    fake.script([anthropicTool('done', { summary: 'all done' })]);
    expect(await runOf('sap-model')).toMatchObject({ status: 'completed', end_reason: 'done' });
    // The screen changes while the model thinks: the host refuses the click (screen_changed).
    const elements = JSON.parse(
      (await stack.sim.call('GET', '/elements')).body.toString(),
    ) as Array<{
      name: string;
      rect: { x: number; y: number; width: number; height: number };
    }>;
    const rect = elements.find((e) => e.name === 'Command field')!.rect;
    const click = [rect.x + Math.floor(rect.width / 2), rect.y + Math.floor(rect.height / 2)];
    fake.script([
      async () => {
        await stack.sim.poke('a message appears');
        return anthropicComputer({ action: 'left_click', coordinate: click });
      },
      anthropicTool('done', { summary: 'looked again' }),
    ]);
    const changed = await runOf('sap-model');
    expect(changed).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(changed.steps[0]).toMatchObject({ classification: 'read', outcome: 'screen_changed' });
  });

  it('lists every agent of the config with its host, planner, approval mode and numbers', async () => {
    const r = await stack.api.request('GET', '/api/admin/inventory', { token: stack.tokens.admin });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ enabled: true, config_version: expect.any(Number) });
    const agents = Object.fromEntries(r.body.agents.map((a: any) => [a.agent, a]));
    expect(r.body.agents.map((a: any) => a.agent)).toEqual([
      'sap-gives-up',
      'sap-idle',
      'sap-model',
      'sap-orders',
      'sap-quick',
    ]);

    const orders = agents['sap-orders'];
    expect(orders).toMatchObject({
      system: 'SAP GUI (sim)',
      screen_host: stack.sim.url,
      planner: { kind: 'scripted', id: scripted.write },
      write_approval: { require_write_approval: true, approve_at: 'every_write' },
      last_run: { id: runs['sap-orders'][1], status: 'stopped', end_reason: 'rejected' },
      runs_7d: { runs: 2, ended: 2, completed: 1, success_rate: 0.5 },
      runs_30d: { runs: 2, ended: 2, completed: 1, success_rate: 0.5 },
    });
    expect(new Date(orders.last_run.ended_at).getTime()).toBeGreaterThan(Date.now() - 120_000);
    // Two decisions (one approval, one rejection); the median of two is their mean.
    const decided = await stack.api.db.sql<{ s: number }>(
      `SELECT extract(epoch FROM decided_at - created_at)::float8 AS s FROM approvals
        WHERE run_id = ANY($1::uuid[])`,
      [runs['sap-orders']],
    );
    const mean = (decided[0].s + decided[1].s) / 2;
    expect(orders.approvals_30d.decided).toBe(2);
    expect(orders.approvals_30d.median_seconds_to_decide).toBeCloseTo(mean, 6);
    expect(orders.approvals_30d.median_seconds_to_decide).toBeGreaterThan(0);

    expect(agents['sap-quick']).toMatchObject({
      runs_7d: { runs: 2, ended: 2, completed: 2, success_rate: 1 },
      approvals_30d: { decided: 0, median_seconds_to_decide: null },
    });
    expect(agents['sap-gives-up']).toMatchObject({
      last_run: { status: 'failed', end_reason: 'fail' },
      runs_30d: { runs: 1, ended: 1, completed: 0, success_rate: 0 },
    });
    expect(agents['sap-model'].planner).toEqual({
      kind: 'model',
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
    });
    expect(JSON.stringify(r.body)).not.toContain(keyEnv);
    expect(agents['sap-idle']).toMatchObject({
      system: 'Green screen',
      write_approval: { require_write_approval: true, approve_at: 'commit' },
      last_run: null,
      runs_7d: { runs: 0, ended: 0, completed: 0, success_rate: null },
      runs_30d: { runs: 0, ended: 0, completed: 0, success_rate: null },
    });
  });

  it("shows only the caller's tenant, and only to computer_use.admin", async () => {
    const other = await stack.api.request('GET', '/api/admin/inventory', {
      token: stack.tokens.other,
    });
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ enabled: false, config_version: 0, agents: [] });
    const operator = await stack.api.request('GET', '/api/admin/inventory', {
      token: stack.tokens.operator,
    });
    expect(operator.status).toBe(403);
  });

  it('exposes runs, steps, approval latency and model usage in /metrics', async () => {
    const m = await stack.api.request('GET', '/metrics', { token: SCRAPE_TOKEN });
    expect(m.status).toBe(200);
    const text = m.text;
    const at = (agent: string, extra: Record<string, string> = {}) => ({
      tenant: 'acme',
      agent,
      ...extra,
    });
    expect(sample(text, 'warden_runs_started_total', at('sap-orders'))).toBe(2);
    expect(sample(text, 'warden_runs_started_total', at('sap-quick'))).toBe(2);
    expect(sample(text, 'warden_runs_started_total', at('sap-idle'))).toBeUndefined();
    const ended = (agent: string, end_reason: string) =>
      sample(text, 'warden_runs_ended_total', at(agent, { end_reason }));
    expect(ended('sap-quick', 'done')).toBe(2);
    expect(ended('sap-orders', 'done')).toBe(1);
    expect(ended('sap-orders', 'rejected')).toBe(1);
    expect(ended('sap-gives-up', 'fail')).toBe(1);
    expect(ended('sap-model', 'done')).toBe(2);

    const steps = (agent: string, classification: string, outcome: string) =>
      sample(text, 'warden_steps_total', at(agent, { classification, outcome }));
    expect(steps('sap-orders', 'write', 'sent_after_approval')).toBe(1);
    expect(steps('sap-orders', 'write', 'rejected')).toBe(1);
    expect(steps('sap-orders', 'read', 'sent')).toBe(2);
    expect(steps('sap-quick', 'read', 'ended')).toBe(2);
    expect(text).toContain('# TYPE warden_screen_changed_total counter');
    expect(sample(text, 'warden_screen_changed_total', at('sap-model'))).toBe(1);
    expect(steps('sap-model', 'read', 'screen_changed')).toBe(1);
    expect(sample(text, 'warden_screen_changed_total', at('sap-orders'))).toBeUndefined();

    // Held → decided: both decisions of sap-orders; decided → sent: the one approved write.
    expect(text).toContain('# TYPE warden_held_to_decided_seconds histogram');
    expect(sample(text, 'warden_held_to_decided_seconds_count', at('sap-orders'))).toBe(2);
    expect(
      sample(text, 'warden_held_to_decided_seconds_bucket', at('sap-orders', { le: '+Inf' })),
    ).toBe(2);
    expect(
      sample(text, 'warden_held_to_decided_seconds_bucket', at('sap-orders', { le: '86400' })),
    ).toBe(2);
    expect(sample(text, 'warden_held_to_decided_seconds_sum', at('sap-orders'))).toBeGreaterThan(0);
    expect(sample(text, 'warden_decided_to_sent_seconds_count', at('sap-orders'))).toBe(1);
    expect(
      sample(text, 'warden_decided_to_sent_seconds_bucket', at('sap-orders', { le: '14400' })),
    ).toBe(1);

    // Three answered calls of 1000 input and 100 output tokens each, at $3 / $15 per million.
    expect(sample(text, 'warden_model_calls_total', at('sap-model'))).toBe(3);
    expect(sample(text, 'warden_model_input_tokens_total', at('sap-model'))).toBe(3000);
    expect(sample(text, 'warden_model_output_tokens_total', at('sap-model'))).toBe(300);
    expect(sample(text, 'warden_model_cost_usd_total', at('sap-model'))).toBeCloseTo(0.0135, 9);
    expect(sample(text, 'warden_model_calls_total', at('sap-quick'))).toBeUndefined();
    // No run ids in any label.
    for (const id of Object.values(runs).flat()) expect(text).not.toContain(id);
  });

  it("serves the series labelled by tenant only to the deployment's scraper", async () => {
    for (const token of [undefined, stack.tokens.admin, `${SCRAPE_TOKEN}x`]) {
      const open = await stack.api.request('GET', '/metrics', token ? { token } : {});
      expect(open.status).toBe(200);
      expect(open.text).toContain('warden_http_requests_total');
      expect(open.text).not.toContain('tenant="acme"');
      expect(open.text).not.toContain('warden_runs_ended_total');
    }
  });

  it('answers the same totals on the next scrape (totals, not increments)', async () => {
    const again = (await stack.api.request('GET', '/metrics', { token: SCRAPE_TOKEN })).text;
    expect(
      sample(again, 'warden_runs_ended_total', {
        tenant: 'acme',
        agent: 'sap-quick',
        end_reason: 'done',
      }),
    ).toBe(2);
    expect(
      sample(again, 'warden_held_to_decided_seconds_count', {
        tenant: 'acme',
        agent: 'sap-orders',
      }),
    ).toBe(2);
  });
});
