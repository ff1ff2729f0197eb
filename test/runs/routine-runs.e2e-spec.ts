/**
 * Routine runs over the real API, worker, PostgreSQL, Redis and the sim screen host: a completed
 * VA02 run saved as a script with `order` and `date` as parameters, its steps; a replay for another
 * order; a parameter missing (400 naming it); a replay on a screen the script did not expect (a
 * dialog the sim opens), without a fallback (fails naming the step) and with one (the fake model
 * closes the dialog, the script goes on); and a held write in a replay, which is held, four-eyes
 * and stale-screen checked exactly as in a planned run.
 */
import { randomBytes } from 'node:crypto';
import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { approveEveryWrite, saves } from '../support/approving';
import { anthropicComputer, startFakeProvider, type FakeProvider } from '../support/fake-provider';
import { isEnded, startStack, type Stack } from '../support/stack';

const ID = /^scripted-[0-9a-f-]{36}$/;

describe('routine runs: a run saved as a script, replayed under the same rules', () => {
  let stack: Stack;
  let fake: FakeProvider;
  let sourceRun: any;
  let sourceHeld: number;
  let routine: string;
  let menuTitle: string;
  const keyEnv = `WARDEN_TEST_MODEL_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;

  const post = (path: string, json: unknown, token = stack.tokens.admin) =>
    stack.api.request('POST', path, { token, json });
  const startWith = (
    agent: string,
    params?: Record<string, unknown>,
    token = stack.tokens.operator,
  ) =>
    post(
      '/api/computer-use/runs',
      { agent, goal: 'change the delivery date', ...(params ? { params } : {}) },
      token,
    );

  /** Approves (as another person) and resumes every write the run holds, to its end. */
  async function approveToEnd(id: string): Promise<{ run: any; held: number }> {
    const { run, held } = await approveEveryWrite(stack, id);
    return { run, held: held.length };
  }

  /** The sim from its start, with an information dialog the script does not expect over it. */
  async function unexpectedDialog(): Promise<void> {
    await stack.sim.reset();
    await stack.sim.call('POST', '/sim/popup', {
      title: 'Information',
      message: 'The system will be down for maintenance at 18:00.',
      buttons: ['OK', 'Close'],
    });
  }

  const agents: Record<string, Record<string, unknown>> = {};
  /** Adds an agent on the same sim planned by `planner`, keeping those added before. */
  async function agentWith(name: string, planner: string): Promise<void> {
    agents[name] = { ...AGENT(stack), planner };
    await stack.configure({ planner: VA02_PLANNER }, agents);
  }

  let VA02_PLANNER: string;

  beforeAll(async () => {
    process.env[keyEnv] = `sk-ant-test-${randomBytes(16).toString('hex')}`;
    fake = await startFakeProvider();
    stack = await startStack();
    await stack.grant(keyEnv, fake.url);
    VA02_PLANNER = await stack.planner(VA02_EXAMPLE_SCRIPT);
    await stack.configure({ planner: VA02_PLANNER });
    const elements = JSON.parse((await stack.sim.call('GET', '/elements')).body.toString());
    menuTitle = elements.find((e: any) => e.role === 'title').name;
    const started = await stack.start('change order 4711 to 30.04.2026');
    const done = await approveToEnd(started.id);
    sourceRun = done.run;
    sourceHeld = done.held;
    expect(sourceRun).toMatchObject({ status: 'completed', end_reason: 'done' });
  });

  afterAll(async () => {
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  it('saves a completed run as a script: element steps, each waiting for its screen, typed text as parameters', async () => {
    const saved = await post(`/api/computer-use/runs/${sourceRun.id}/script`, {
      name: 'VA02: change the delivery date',
      parameters: { order: '4711', date: '30.04.2026' },
    });
    expect(saved.status).toBe(201);
    const planner = saved.body.planner;
    expect(planner).toMatchObject({ id: expect.stringMatching(ID), source_run_id: sourceRun.id });
    routine = planner.id;
    const esc = (t: string) => t.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
    const menu = { text: `^${esc(menuTitle)}$` };
    const initial = { text: '^Change Sales Order: Initial Screen$' };
    const overview = { text: '^Change Standard Order {{order}}: Overview$' };
    expect(planner.script.parameters).toEqual(['order', 'date']);
    expect(planner.script.steps.map((s: any) => ({ when: s.when, action: s.action }))).toEqual([
      {
        when: menu,
        action: { action: 'click', element: { role: 'textbox', name: 'Command field' } },
      },
      { when: menu, action: { action: 'type', text: '/nVA02' } },
      { when: menu, action: { action: 'key', key: 'Enter' } },
      { when: initial, action: { action: 'click', element: { role: 'textbox', name: 'Order' } } },
      { when: initial, action: { action: 'type', text: '{{order}}' } },
      { when: initial, action: { action: 'key', key: 'Enter' } },
      {
        when: overview,
        action: { action: 'click', element: { role: 'textbox', name: 'Req. Deliv. Date' } },
      },
      { when: overview, action: { action: 'type', text: '{{date}}' } },
      { when: overview, action: { action: 'click', element: { role: 'button', name: 'Save' } } },
      // Saving brings the initial screen back, with the order's receipt in the status bar.
      {
        when: initial,
        action: { action: 'done', summary: 'order {{order}}: Req. Deliv. Date is now {{date}}' },
      },
    ]);
    // Each step names the step of the run it came from.
    expect(planner.script.steps.map((s: any) => s.step)).toEqual(
      sourceRun.steps
        .filter((s: any) => ['sent', 'sent_after_approval', 'ended'].includes(s.outcome))
        .filter((s: any) => s.action.action !== 'wait')
        .map((s: any) => `run step ${s.n}`),
    );
    // An ordinary scripted planner: listed, audited with its source.
    const listed = await stack.api.request('GET', '/api/planners/scripted', {
      token: stack.tokens.admin,
    });
    expect(listed.body.items.map((p: any) => p.id)).toContain(routine);
    const audit = await stack.api.db.sql<{ details: any }>(
      `SELECT details FROM audit_events WHERE type = 'computer_use.planner.created' AND details->>'planner_id' = $1`,
      [routine],
    );
    expect(audit).toEqual([{ details: expect.objectContaining({ source_run_id: sourceRun.id }) }]);
  });

  it('refuses to save a run that is not completed, a value the run never typed, or without the permission', async () => {
    const notTyped = await post(`/api/computer-use/runs/${sourceRun.id}/script`, {
      name: 'x',
      parameters: { order: '9999' },
    });
    expect(notTyped.status).toBe(400);
    expect(notTyped.body.message).toBe('parameter order: "9999" is not text the run typed');
    const byOperator = await post(
      `/api/computer-use/runs/${sourceRun.id}/script`,
      { name: 'x' },
      stack.tokens.operator,
    );
    expect(byOperator.status).toBe(403);
    const otherTenant = await post(
      `/api/computer-use/runs/${sourceRun.id}/script`,
      { name: 'x' },
      stack.tokens.other,
    );
    expect(otherTenant.status).toBe(404);
    const cancelled = await stack.start('change order 4711');
    await post(`/api/computer-use/runs/${cancelled.id}/cancel`, {}, stack.tokens.operator);
    const notDone = await post(`/api/computer-use/runs/${cancelled.id}/script`, { name: 'x' });
    expect(notDone.status).toBe(409);
    expect(notDone.body.message).toMatch(/is stopped \(cancelled\): only a completed run is saved/);
  });

  it('refuses a run start that misses a parameter with 400 naming it, and one with control characters', async () => {
    await agentWith('routine', routine);
    const missing = await startWith('routine', { order: '4712' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'parameter date is missing: the script needs order, date',
    });
    const none = await startWith('routine');
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('parameter order is missing: the script needs order, date');
    const control = await startWith('routine', { order: '4712\n', date: '15.05.2026' });
    expect(control.status).toBe(400);
    expect(control.body.message).toMatch(/^parameter order must not contain control/);
    // Every format character and bidi control, the Arabic letter mark and the soft hyphen too.
    for (const hidden of ['\u061c', '\u00ad', '\u{e0041}']) {
      const r = await startWith('routine', { order: `47${hidden}12`, date: '15.05.2026' });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(
        /^parameter order must not contain control, invisible or bidirectional characters \(it has /,
      );
    }
    const goal = await post(
      '/api/computer-use/runs',
      {
        agent: 'routine',
        goal: 'change the date\u202e6202.50.51',
        params: { order: '4712', date: '1' },
      },
      stack.tokens.operator,
    );
    expect(goal.status).toBe(400);
    expect(goal.body.message).toMatch(
      /^goal must not contain control, invisible or bidirectional characters/,
    );
    const long = await startWith('routine', { order: 'x'.repeat(501), date: '15.05.2026' });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('parameter order must have 1 to 500 characters (it has 501)');
    const unknown = await startWith('routine', { order: '4712', date: '1', plant: '1000' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^parameter plant is not a parameter of the script/);
  });

  it('replays for another order: no model asked, the same approvals, the goal names the values', async () => {
    await stack.sim.reset();
    const started = await startWith('routine', { order: '4712', date: '15.05.2026' });
    expect(started.status).toBe(201);
    expect(started.body.goal).toBe(
      'change the delivery date (parameters: order = "4712", date = "15.05.2026")',
    );
    expect(started.body.params).toEqual({ order: '4712', date: '15.05.2026' });
    const asked = fake.requests.length;
    const { run, held } = await approveToEnd(started.body.id);
    expect(run).toMatchObject({
      status: 'completed',
      end_reason: 'done',
      summary: 'order 4712: Req. Deliv. Date is now 15.05.2026',
    });
    expect(held).toBe(sourceHeld);
    expect(run.steps.every((s: any) => s.planned_by === 'script')).toBe(true);
    expect(run.planning).toEqual({
      script_steps: run.steps.length,
      fallback_steps: 0,
      model_calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
    });
    expect(fake.requests.length).toBe(asked);
    const saved = await saves(stack.sim);
    expect(saved.at(-1)).toMatchObject({ order: '4712', fields: { reqDelivDate: '15.05.2026' } });
  });

  it('fails naming the step when the screen is not the one the script expects and it has no fallback', async () => {
    await unexpectedDialog();
    const started = await startWith('routine', { order: '4712', date: '15.05.2026' });
    const run = await stack.waitFor(started.body.id, isEnded, 60_000);
    expect(run).toMatchObject({ status: 'failed', end_reason: 'fail' });
    expect(run.summary).toMatch(
      /^steps\[0\] \(step "run step 1"\) waited 10 times for text \/\^.*\$\/$/,
    );
    // Nothing reached the screen.
    expect((await stack.sim.events()).filter((e) => e.type === 'action')).toEqual([]);
  });

  it('with a fallback, the model plans the step the screen got in the way of, and the script goes on', async () => {
    // The same run saved again, with the tenant's own model to fall back on.
    const saved = await post(`/api/computer-use/runs/${sourceRun.id}/script`, {
      name: 'VA02 with a fallback',
      parameters: { order: '4711', date: '30.04.2026' },
      fallback: {
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        api_key_env: keyEnv,
        base_url: fake.url,
        price_per_mtok_in: 3,
        price_per_mtok_out: 15,
      },
    });
    expect(saved.status).toBe(201);
    await agentWith('routine-fb', saved.body.planner.id);
    await unexpectedDialog();
    fake.reset();
    fake.script([anthropicComputer({ action: 'key', text: 'Escape' })]);
    const started = await startWith('routine-fb', { order: '4713', date: '01.06.2026' });
    expect(started.status).toBe(201);
    const { run } = await approveToEnd(started.body.id);
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    const first = run.steps[0];
    expect(first).toMatchObject({
      planned_by: 'fallback',
      action: { action: 'key', key: 'Escape' },
      classification: 'read',
      outcome: 'sent',
      model: expect.objectContaining({ input_tokens: 1000, output_tokens: 100 }),
    });
    // The model's step passed the injection rail like any model's.
    expect(first.rail).toMatchObject({ verdict: 'clean' });
    expect(run.steps.slice(1).every((s: any) => s.planned_by === 'script')).toBe(true);
    expect(run.planning).toMatchObject({
      fallback_steps: 1,
      script_steps: run.steps.length - 1,
      model_calls: 1,
      input_tokens: 1000,
      output_tokens: 100,
      cost_usd: 0.0045,
    });
    // The fallback was told the goal, what the script expected and the steps left.
    expect(fake.requests).toHaveLength(1);
    const prompt = JSON.stringify(fake.requests[0].body);
    expect(prompt).toContain('order = \\"4713\\"');
    expect(prompt).toContain('waited for text');
    expect(prompt).toContain('type \\"4713\\"');
    const saved4713 = await saves(stack.sim);
    expect(saved4713.at(-1)).toMatchObject({
      order: '4713',
      fields: { reqDelivDate: '01.06.2026' },
    });
  });

  it('refuses a fallback the caller may not use (the catalog rule), when saved and at config time', async () => {
    const refused = await post(`/api/computer-use/runs/${sourceRun.id}/script`, {
      name: 'with an unknown model',
      fallback: 'anthropic-claude-opus-4.1-normal',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/^The script's fallback: There is no planner/);
    const script = await post('/api/planners/scripted', {
      name: 'by hand',
      script: { ...VA02_EXAMPLE_SCRIPT, fallback: 'anthropic-claude-opus-4.1-normal' },
    });
    expect(script.status).toBe(403);
    const navigator = await post('/api/planners/scripted', {
      name: 'by hand',
      script: { ...VA02_EXAMPLE_SCRIPT, fallback: 'navigator-2026-11-10-normal' },
    });
    expect(navigator.status).toBe(400);
  });

  it('holds a replayed write exactly as a planned one: four-eyes, and stale_screen on a changed screen', async () => {
    await stack.sim.reset();
    const started = await startWith(
      'routine',
      { order: '4712', date: '15.05.2026' },
      stack.tokens.both,
    );
    const held = await stack.waitFor(
      started.body.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
    );
    expect(held.status).toBe('awaiting_approval');
    const approval = held.pending_approval;
    expect(approval).toMatchObject({
      requested_by: 'olga',
      action: { action: 'type', text: '/nVA02' },
    });
    const self = await post(`/api/approvals/${approval.id}/approve`, {}, stack.tokens.both);
    expect(self.status).toBe(403);
    expect(self.body.message).toMatch(/four-eyes/);
    expect(
      (await post(`/api/approvals/${approval.id}/approve`, {}, stack.tokens.approver)).status,
    ).toBe(200);
    await stack.sim.poke('Another user locked the session');
    const resumed = await post(
      `/api/computer-use/runs/${started.body.id}/resume`,
      {},
      stack.tokens.both,
    );
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ status: 'stopped', end_reason: 'stale_screen' });
    const typed = (await stack.sim.events()).filter(
      (e) => e.type === 'action' && e.action.action === 'type',
    );
    expect(typed).toEqual([]);
    const audit = await stack.api.request(
      'GET',
      `/api/audit?run_id=${started.body.id}&type=computer_use.write.stale`,
      { token: stack.tokens.auditor },
    );
    expect(audit.body.items).toHaveLength(1);
  });

  it('holds a write the fallback chose even for an agent whose writes need no approval', async () => {
    const saved = await post(`/api/computer-use/runs/${sourceRun.id}/script`, {
      name: 'VA02 without approval, with a fallback',
      parameters: { order: '4711', date: '30.04.2026' },
      fallback: {
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        api_key_env: keyEnv,
        base_url: fake.url,
      },
    });
    expect(saved.status).toBe(201);
    // The weakening is the agent's: its writes go without approval, as its script plans them.
    await stack.configure({
      planner: saved.body.planner.id,
      require_write_approval: false,
      reason: 'routine delivery-date changes, reviewed as a script',
    });
    await unexpectedDialog();
    fake.reset();
    // Off the script, the model types: a write.
    fake.script([anthropicComputer({ action: 'type', text: 'closing this' })]);
    const started = await startWith('sap-orders', { order: '4713', date: '01.06.2026' });
    expect(started.status).toBe(201);
    const held = await stack.waitFor(
      started.body.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
    );
    expect(held.status).toBe('awaiting_approval');
    expect(held.pending_approval).toMatchObject({
      action: { action: 'type', text: 'closing this' },
      why: expect.stringContaining("the script's fallback model chose it, not the script"),
    });
    expect(held.steps.at(-1)).toMatchObject({ planned_by: 'fallback', outcome: 'held' });
    const typed = (await stack.sim.events()).filter(
      (e) => e.type === 'action' && e.action.action === 'type',
    );
    expect(typed).toEqual([]);
    const cancelled = await post(
      `/api/computer-use/runs/${started.body.id}/cancel`,
      {},
      stack.tokens.operator,
    );
    expect(cancelled.status).toBe(200);
  });
});

/** The agent `sap-orders` of the stack, for an agent of another name on the same sim. */
function AGENT(stack: Stack) {
  return {
    screen_url: stack.sim.url,
    screen_token_env: stack.sim.tokenEnv,
    screen_tls: { fingerprint_sha256: stack.sim.fingerprint },
    system: 'SAP GUI (sim)',
    max_steps: 40,
    max_seconds: 300,
  };
}
