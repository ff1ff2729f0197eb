import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  anthropicComputer,
  anthropicMessage,
  anthropicTool,
  type FakeProvider,
  startFakeProvider,
  textOf,
} from '../support/fake-provider';
import { ENTRIES, spawnEntry, stop } from '../../scripts/lib/processes';
import { isEnded, startStack, Stack } from '../support/stack';

/**
 * The governed model call when things go wrong: budgets, unknown usage, rate limits, a provider
 * error that quotes the prompt back, answers that are no action. Real API, worker, sim host, and
 * a fake provider over HTTP.
 */

const WAIT = { action: 'wait', duration: 0.1 };

function plannerFor(fake: FakeProvider, keyEnv: string, extra: Record<string, unknown> = {}) {
  return {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    api_key_env: keyEnv,
    base_url: fake.url,
    history_screens: 1,
    ...extra,
  };
}

describe('the governed model call when things go wrong', () => {
  let stack: Stack;
  let fake: FakeProvider;
  const keyEnv = `WARDEN_TEST_MODEL_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;

  beforeAll(async () => {
    process.env[keyEnv] = `sk-ant-test-${randomBytes(16).toString('hex')}`;
    fake = await startFakeProvider();
    stack = await startStack();
    await stack.grant(keyEnv, fake.url);
  });

  afterAll(async () => {
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  /** An agent of its own on the sim host, so that each test has its own daily usage. */
  async function agent(name: string, planner: Record<string, unknown>) {
    const { sim } = stack;
    await stack.configure(
      {},
      {
        [name]: {
          screen_url: sim.url,
          screen_token_env: sim.tokenEnv,
          screen_tls: { fingerprint_sha256: sim.fingerprint },
          system: 'SAP GUI (sim)',
          planner,
        },
      },
    );
  }

  it('stops a run budget_exhausted when its token budget is used up, and a day’s budget across runs', async () => {
    await agent('per-run', plannerFor(fake, keyEnv, { max_tokens_per_run: 2500 }));
    fake.script([], anthropicComputer(WAIT, { input: 1000, output: 100 }));
    const run = await stack.start('wait a while', 'per-run');
    const stopped = await stack.waitFor(run.id, isEnded);
    // 1100 tokens a call: after three (3300) the fourth is not made.
    expect(fake.requests).toHaveLength(3);
    expect(stopped).toMatchObject({ status: 'stopped', end_reason: 'budget_exhausted' });
    expect(stopped.summary).toMatch(/used 3300 tokens of its budget of 2500/);
    expect(stopped.steps).toHaveLength(4);
    expect(stopped.steps[3].error).toMatch(/budget/);
    expect(stopped.steps.slice(0, 3).map((s: any) => s.model.input_tokens)).toEqual([
      1000, 1000, 1000,
    ]);

    await agent('per-day', plannerFor(fake, keyEnv, { max_tokens_per_day: 2000 }));
    fake.script([], anthropicComputer(WAIT, { input: 1000, output: 100 }));
    const first = await stack.waitFor((await stack.start('wait', 'per-day')).id, isEnded);
    expect(first).toMatchObject({ end_reason: 'budget_exhausted' });
    expect(first.summary).toMatch(/2200 tokens today \(UTC\) of its daily budget of 2000/);
    expect(fake.requests).toHaveLength(2);
    // The next run of the agent that day stops before asking the model anything.
    const second = await stack.waitFor((await stack.start('wait', 'per-day')).id, isEnded);
    expect(second).toMatchObject({ end_reason: 'budget_exhausted', step_count: 1 });
    expect(fake.requests).toHaveLength(2);
  });

  it('keeps usage a provider did not report unknown (null), never zero', async () => {
    await agent(
      'no-usage',
      plannerFor(fake, keyEnv, { price_per_mtok_in: 3, price_per_mtok_out: 15 }),
    );
    fake.script([
      anthropicComputer(WAIT, null),
      anthropicTool('done', { summary: 'waited' }, null),
    ]);
    const run = await stack.waitFor((await stack.start('wait', 'no-usage')).id, isEnded);
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    for (const step of run.steps) {
      expect(step.model.input_tokens).toBeNull();
      expect(step.model.output_tokens).toBeNull();
      expect(step.model.cost_usd).toBeNull();
    }
    const t = await stack.api.request(
      'GET',
      `/api/computer-use/runs/${run.id}/steps/1/transcript`,
      {
        token: stack.tokens.auditor,
      },
    );
    expect(t.body.calls[0]).toMatchObject({
      input_tokens: null,
      output_tokens: null,
      cost_usd: null,
    });
    const rows = await stack.api.db.sql<{ input_tokens: number | null }>(
      `SELECT input_tokens FROM model_calls WHERE run_id = $1`,
      [run.id],
    );
    expect(rows.map((r) => r.input_tokens)).toEqual([null, null]);

    // A token budget cannot be kept over unknown usage: the run stops rather than guess.
    await agent('no-usage-capped', plannerFor(fake, keyEnv, { max_tokens_per_run: 100_000 }));
    fake.script([], anthropicComputer(WAIT, null));
    const capped = await stack.waitFor((await stack.start('wait', 'no-usage-capped')).id, isEnded);
    expect(capped).toMatchObject({ end_reason: 'budget_exhausted' });
    expect(capped.summary).toMatch(/cannot be kept/);
    expect(fake.requests).toHaveLength(1);
  });

  it('waits what a 429’s retry-after says, then carries on', async () => {
    await agent('rate-limited', plannerFor(fake, keyEnv));
    fake.script([
      {
        status: 429,
        headers: { 'retry-after': '1' },
        json: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
      },
      anthropicTool('done', { summary: 'done after waiting' }),
    ]);
    const run = await stack.waitFor((await stack.start('finish', 'rate-limited')).id, isEnded);
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1].at - fake.requests[0].at).toBeGreaterThanOrEqual(950);
    expect(fake.requests[1].raw).toBe(fake.requests[0].raw);
    const t = await stack.api.request(
      'GET',
      `/api/computer-use/runs/${run.id}/steps/1/transcript`,
      {
        token: stack.tokens.auditor,
      },
    );
    expect(t.body.calls).toHaveLength(1);
    expect(t.body.calls[0].attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        status: 429,
        cause: 'rate_limited',
        retry_after_ms: 1000,
        waited_ms: 1000,
      }),
      expect.objectContaining({ attempt: 2, status: null, cause: null }),
    ]);
    expect(t.body.calls[0].latency_ms).toBeGreaterThanOrEqual(950);
  });

  it('stops a run invalid_actions after three malformed answers, telling the model why each time', async () => {
    await agent('malformed', plannerFor(fake, keyEnv));
    fake.script([
      anthropicMessage([{ type: 'text', text: 'I would click the Save button now.' }]),
      anthropicMessage([
        { type: 'tool_use', id: 'toolu_a', name: 'computer', input: { action: 'screenshot' } },
        {
          type: 'tool_use',
          id: 'toolu_b',
          name: 'computer',
          input: { action: 'left_click', coordinate: [5, 5] },
        },
      ]),
      anthropicMessage([]),
    ]);
    const run = await stack.waitFor((await stack.start('do something', 'malformed')).id, isEnded);
    expect(run).toMatchObject({
      status: 'stopped',
      end_reason: 'invalid_actions',
      invalid_actions: 3,
    });
    expect(run.steps.map((s: any) => `${s.classification}:${s.outcome}`)).toEqual([
      'invalid:refused',
      'invalid:refused',
      'invalid:refused',
    ]);
    expect(fake.requests).toHaveLength(3);
    expect(textOf(fake.requests[1])).toContain(
      '1. an answer without one usable action ("I would click the Save button now."): refused by Warden, nothing was sent: Your answer had no tool call',
    );
    expect(textOf(fake.requests[2])).toContain('Warden takes exactly one action per answer');
  });
});

describe('a provider error that quotes the prompt back', () => {
  let stack: Stack;
  let fake: FakeProvider;
  let worker: ChildProcess | undefined;
  const keyEnv = `WARDEN_TEST_MODEL_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;
  const marker = `PROVIDER-ECHO-${randomBytes(8).toString('hex')}`;
  let logs = '';

  beforeAll(async () => {
    process.env[keyEnv] = `sk-ant-test-${randomBytes(16).toString('hex')}`;
    fake = await startFakeProvider();
    stack = await startStack({ noWorker: true });
    await stack.grant(keyEnv, fake.url);
    const c = stack.api.config;
    worker = spawnEntry(ENTRIES.worker, [], {
      DATABASE_URL: c.DATABASE_URL,
      REDIS_URL: c.REDIS_URL,
      QUEUE_PREFIX: c.QUEUE_PREFIX,
      // As much as Warden ever logs.
      LOG_LEVEL: 'trace',
      MASK_INTERVAL_MS: '50',
      [stack.sim.tokenEnv]: process.env[stack.sim.tokenEnv]!,
      [keyEnv]: process.env[keyEnv] ?? '',
    });
    worker.stdout!.on('data', (d: Buffer) => (logs += d.toString()));
    worker.stderr!.on('data', (d: Buffer) => (logs += d.toString()));
  });

  afterAll(async () => {
    if (worker) await stop(worker);
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  it('fails the run model_error after bounded retries, and the body is in no table and no log', async () => {
    await stack.configure({ planner: plannerFor(fake, keyEnv) });
    const goal = `Check order 4711 (${randomBytes(4).toString('hex')})`;
    fake.script([], (request) => ({
      status: 500,
      json: {
        type: 'error',
        error: { type: 'api_error', message: `${marker} you sent: ${request.raw.slice(0, 4000)}` },
      },
    }));
    const run = await stack.start(goal);
    const failed = await stack.waitFor(run.id, isEnded, 60_000);
    expect(failed).toMatchObject({ status: 'failed', end_reason: 'model_error' });
    expect(failed.summary).toMatch(/500 \(server_error\)/);
    expect(fake.requests).toHaveLength(4);
    expect(fake.requests[0].raw).toContain(goal);

    // Every row of every table, as text.
    const tables = await stack.api.db.sql<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['model_calls', 'runs', 'audit_events']),
    );
    let goalSeen = 0;
    for (const { table_name } of tables) {
      const hits = await stack.api.db.sql<{ marker: number; goal: number }>(
        `SELECT count(*) FILTER (WHERE t::text LIKE $1)::int AS marker,
                count(*) FILTER (WHERE t::text LIKE $2)::int AS goal
           FROM "${table_name}" t`,
        [`%${marker}%`, `%${goal.slice(-9, -1)}%`],
      );
      expect({ table: table_name, hits: hits[0].marker }).toEqual({ table: table_name, hits: 0 });
      goalSeen += hits[0].goal;
    }
    // The search can find what is there: the prompt itself is in the transcript and the run.
    expect(goalSeen).toBeGreaterThan(0);
    const [call] = await stack.api.db.sql<{ error: any; answer: unknown; attempts: any[] }>(
      `SELECT error, answer, attempts FROM model_calls WHERE run_id = $1`,
      [run.id],
    );
    expect(call.answer).toBeNull();
    expect(call.error).toMatchObject({ status: 500, cause: 'server_error' });
    expect(call.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500]);

    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(logs).toContain('model call failed');
    expect(logs).not.toContain(marker);
    expect(logs).not.toContain(process.env[keyEnv]!);
  });
});
