import type { ChildProcess } from 'node:child_process';
import { frameSha256 } from '@warden/protocol';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createCanvas } from '@napi-rs/canvas';
import { startScreenHost } from '../../screen-host/src';
import { JOB, STEP_QUEUE } from '../../src/queue/step-queue';
import type { ScreenBackend } from '../../screen-host/src';
import { TEST_REDIS_URL } from '../support/env';
import { ENTRIES, runEntry, spawnEntry, stop } from '../../scripts/lib/processes';
import { corruptIdat } from '../support/crafted-png';
import { isEnded, startSimHost, startStack, Stack } from '../support/stack';
import { until } from '../support/until';

/**
 * docs/operations.md under fire: workers killed around a write's POST /action, Redis losing every key,
 * a screen host that is down or answers garbage. Workers here are real processes, killed for real.
 */

const COMMAND = { role: 'textbox', name: 'Command field' };
const ONE_WRITE = {
  steps: [
    { action: { action: 'click', element: COMMAND } },
    { step: 'the write', action: { action: 'type', text: '/nVA03' } },
    { action: { action: 'done', summary: 'typed' } },
  ],
};

/** How long a worker process is given to start and do what is waited for. */
const STARTED_MS = 90_000;

/** A real worker process on a stack's database and queues, with short leases and passes. */
function spawnWorker(stack: Stack, env: Record<string, string> = {}): ChildProcess {
  const c = stack.api.config;
  return spawnEntry(ENTRIES.worker, [], {
    DATABASE_URL: c.DATABASE_URL,
    REDIS_URL: c.REDIS_URL,
    QUEUE_PREFIX: c.QUEUE_PREFIX,
    LOG_LEVEL: 'warn',
    STEP_LEASE_MS: '1500',
    RECONCILE_INTERVAL_MS: '300',
    MASK_INTERVAL_MS: '50',
    [stack.sim.tokenEnv]: process.env[stack.sim.tokenEnv]!,
    ...env,
  });
}

describe('a worker killed around a write', () => {
  // Each test starts worker processes from source and waits for one to recover another's step: on
  // two cores held by eight busy loops one such test took 33-45 s, past the 30 s once waited.
  jest.setTimeout(300_000);
  let stack: Stack;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    stack = await startStack({ noWorker: true, env: { STEP_LEASE_MS: '1500' } });
  });

  afterEach(async () => {
    for (const w of workers.splice(0)) await stop(w);
    // A run a failed test left unfinished would hold the sim host from every test after it.
    const { body } = await stack.api.request('GET', '/api/computer-use/runs', {
      token: stack.tokens.operator,
    });
    for (const run of (body?.items ?? []) as Array<{ id: string; status: string }>) {
      if (isEnded(run)) continue;
      await stack.api.request('POST', `/api/computer-use/runs/${run.id}/cancel`, {
        token: stack.tokens.operator,
      });
    }
  });

  afterAll(async () => {
    await stack?.close();
  });

  /** A worker process of this stack; `crashAt` makes it die on a write. */
  function worker(crashAt?: 'before-send' | 'after-send'): ChildProcess {
    const child = spawnWorker(stack, crashAt ? { TEST_CRASH_AT: crashAt, NODE_ENV: 'test' } : {});
    workers.push(child);
    return child;
  }

  const typed = async () =>
    (await stack.sim.events()).filter((e) => e.type === 'action' && e.action?.action === 'type');

  /**
   * A run of ONE_WRITE whose write bob approved and olga resumed, on a worker that died `crashAt`
   * its send; the resume, which answers once the step is done, not awaited.
   */
  async function resumedOnDyingWorker(crashAt: 'before-send' | 'after-send') {
    await stack.sim.reset();
    await stack.configure({ planner: await stack.planner(ONE_WRITE) });
    const first = worker(crashAt);
    const run = await stack.start();
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval');
    await stack.api.request('POST', `/api/approvals/${held.pending_approval.id}/approve`, {
      token: stack.tokens.approver,
      json: {},
    });
    const resumed = stack.api.request('POST', `/api/computer-use/runs/${run.id}/resume`, {
      token: stack.tokens.operator,
    });
    expect((await exited(first, STARTED_MS)).signal).toBe('SIGKILL');
    return { run, resumed };
  }

  for (const crashAt of ['before-send', 'after-send'] as const) {
    it(`sends a write once when the worker dies ${crashAt.replace('-', ' ')} (no approval needed)`, async () => {
      await stack.sim.reset();
      await stack.configure({
        planner: await stack.planner(ONE_WRITE),
        require_write_approval: false,
        reason: 'fault test',
      });
      const first = worker(crashAt);
      const run = await stack.start();
      const death = await exited(first, STARTED_MS);
      expect(death.signal).toBe('SIGKILL');
      expect(await typed()).toHaveLength(crashAt === 'before-send' ? 0 : 1);

      worker();
      const done = await stack.waitFor(run.id, isEnded, STARTED_MS);
      expect(done).toMatchObject({ status: 'completed', end_reason: 'done' });
      expect(done.steps[1]).toMatchObject({ classification: 'write', outcome: 'sent' });
      expect(await typed()).toHaveLength(1);
    });

    it(`sends an approved write once when the worker dies ${crashAt.replace('-', ' ')}`, async () => {
      const { run, resumed } = await resumedOnDyingWorker(crashAt);
      worker();
      expect((await resumed).status).toBe(200);
      const done = await stack.waitFor(run.id, isEnded, STARTED_MS);
      expect(done).toMatchObject({ status: 'completed', end_reason: 'done' });
      expect(done.steps[1]).toMatchObject({ outcome: 'sent_after_approval' });
      expect(await typed()).toHaveLength(1);
    });

    it(`records what became of an approved write when the worker dies ${crashAt.replace('-', ' ')} and the run is cancelled before another takes over`, async () => {
      const { run, resumed } = await resumedOnDyingWorker(crashAt);
      const cancelled = await stack.api.request('POST', `/api/computer-use/runs/${run.id}/cancel`, {
        token: stack.tokens.operator,
      });
      expect(cancelled.body).toMatchObject({ status: 'stopped', end_reason: 'cancelled' });
      await resumed;
      worker();
      // The new worker asks the host what became of the step it finds sending, and records it.
      const settled = await stack.waitFor(run.id, (r) => r.steps[1]?.ended_at != null, STARTED_MS);
      expect(settled).toMatchObject({ status: 'stopped', end_reason: 'cancelled', step_count: 2 });
      const writes = (
        await stack.api.request('GET', `/api/audit?run_id=${run.id}&type=computer_use.write`, {
          token: stack.tokens.auditor,
        })
      ).body.items;
      if (crashAt === 'after-send') {
        expect(settled.steps[1]).toMatchObject({ outcome: 'sent_after_approval' });
        expect(writes).toHaveLength(1);
        expect(await typed()).toHaveLength(1);
      } else {
        expect(settled.steps[1]).toMatchObject({
          outcome: 'refused',
          error: expect.stringMatching(/the run ended before the action could be sent again/),
        });
        expect(writes).toHaveLength(0);
        expect(await typed()).toHaveLength(0);
      }
    });

    it(`audits an approved write as one whose outcome is unknown when the worker dies ${crashAt.replace('-', ' ')}, the host token's grant is revoked and the run cancelled before another takes over`, async () => {
      const { run, resumed } = await resumedOnDyingWorker(crashAt);
      const sim = stack.sim;
      const cli = (...args: string[]) =>
        runEntry(ENTRIES.cli, args, { DATABASE_URL: stack.api.config.DATABASE_URL });
      const grant = ['--tenant', 'acme', '--env', sim.tokenEnv, '--to', sim.url];
      expect((await cli('secrets', 'revoke', ...grant)).code).toBe(0);
      try {
        const cancelled = await stack.api.request(
          'POST',
          `/api/computer-use/runs/${run.id}/cancel`,
          { token: stack.tokens.operator },
        );
        expect(cancelled.body).toMatchObject({ status: 'stopped', end_reason: 'cancelled' });
        await resumed;
        const before = await sim.events();
        worker();
        // The new worker may not send the host's token to the host, so it cannot ask what became
        // of the write: its outcome is unknown, and the audit trail says so with its authority.
        const settled = await stack.waitFor(
          run.id,
          (r) => r.steps[1]?.ended_at != null,
          STARTED_MS,
        );
        expect(settled).toMatchObject({
          status: 'stopped',
          end_reason: 'cancelled',
          step_count: 2,
        });
        expect(settled.steps[1]).toMatchObject({
          outcome: null,
          error: expect.stringMatching(/not granted.*whether it acted is unknown/),
        });
        const events = (
          await stack.api.request('GET', `/api/audit?run_id=${run.id}`, {
            token: stack.tokens.auditor,
          })
        ).body.items as Array<{ type: string; details: Record<string, unknown> }>;
        expect(events.map((e) => e.type)).not.toContain('computer_use.write');
        expect(events.filter((e) => e.type === 'computer_use.write.unknown')).toEqual([
          expect.objectContaining({
            details: expect.objectContaining({
              action: { action: 'type', text: '/nVA03' },
              approved_by: 'bob',
              resumed_by: 'olga',
            }),
          }),
        ]);
        // Nothing more was performed on the screen.
        expect(await sim.events()).toEqual(before);
        expect(await typed()).toHaveLength(crashAt === 'before-send' ? 0 : 1);
      } finally {
        expect((await cli('secrets', 'grant', ...grant)).code).toBe(0);
      }
    });
  }
});

describe('duplicate work on several workers', () => {
  let stack: Stack;
  let queue: Queue;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    stack = await startStack({ noWorker: true, env: { STEP_LEASE_MS: '1500' } });
    const c = stack.api.config;
    queue = new Queue(STEP_QUEUE, {
      connection: { url: c.REDIS_URL, maxRetriesPerRequest: null },
      prefix: c.QUEUE_PREFIX,
    });
    for (let i = 0; i < 3; i++) workers.push(spawnWorker(stack));
  });

  afterAll(async () => {
    await queue?.close();
    for (const w of workers.splice(0)) await stop(w);
    await stack?.close();
  });

  /**
   * Jobs for the run's held step, its approved send and the step after it, under ids of their
   * own so that BullMQ does not deduplicate them: as if a reconciler, a takeover and a retry all
   * queued the same work at once. Three worker processes take them concurrently.
   */
  const flood = (runId: string, n: number, tag: string) =>
    queue.addBulk(
      Array.from({ length: 20 }, (_, i) => [
        { name: JOB.approved, data: { runId, n }, opts: { jobId: `${runId}.${n}.${tag}.a${i}` } },
        { name: JOB.step, data: { runId, n }, opts: { jobId: `${runId}.${n}.${tag}.s${i}` } },
        {
          name: JOB.step,
          data: { runId, n: n + 1 },
          opts: { jobId: `${runId}.${n + 1}.${tag}.s${i}` },
        },
      ]).flat(),
    );

  /** Until the workers have taken every job there is and finished it (the expiry job waits). */
  async function drained(): Promise<void> {
    let counts: Record<string, number> = {};
    await until(
      'every job taken and finished',
      async () => {
        counts = await queue.getJobCounts('wait', 'active', 'prioritized');
        return Object.values(counts).every((c) => c === 0);
      },
      { ms: 20_000, seen: () => counts },
    );
  }

  const typed = async () =>
    (await stack.sim.events()).filter((e) => e.type === 'action' && e.action?.action === 'type');

  it('sends a held write never before approval and once after, however many duplicate jobs three workers take', async () => {
    await stack.sim.reset();
    await stack.configure({ planner: await stack.planner(ONE_WRITE) });
    const run = await stack.start();
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r));
    expect(held.status).toBe('awaiting_approval');
    const n = held.pending_approval.step;

    // Before approval: 60 jobs for the held step and the next, and nothing is sent.
    await flood(run.id, n, 'early');
    await drained();
    expect(await typed()).toEqual([]);
    expect(await stack.run(run.id)).toMatchObject({ status: 'awaiting_approval', step_count: n });

    // Approved, and the floods race the resume: one send.
    await stack.api.request('POST', `/api/approvals/${held.pending_approval.id}/approve`, {
      token: stack.tokens.approver,
      json: {},
    });
    const [resumed] = await Promise.all([
      stack.api.request('POST', `/api/computer-use/runs/${run.id}/resume`, {
        token: stack.tokens.operator,
      }),
      flood(run.id, n, 'race1'),
      flood(run.id, n, 'race2'),
    ]);
    expect(resumed.status).toBe(200);
    const done = await stack.waitFor(run.id, isEnded, 30_000);
    await flood(run.id, n, 'late');
    await drained();
    expect(done).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(done.steps.map((st: any) => st.outcome)).toEqual([
      'sent',
      'sent_after_approval',
      'ended',
    ]);
    expect(await typed()).toHaveLength(1);
    const events = await stack.api.request('GET', `/api/audit?run_id=${run.id}`, {
      token: stack.tokens.auditor,
    });
    expect(events.body.items.map((e: any) => e.type)).toEqual([
      'computer_use.start',
      'computer_use.write.held',
      'approval.decided',
      'computer_use.write',
      // What the application said after it, once the screen settled.
      'computer_use.write.receipt',
      'computer_use.end',
    ]);
  });
});

describe('the next step queued while an approved write waits to be sent', () => {
  let stack: Stack;
  let queue: Queue;
  let worker: ChildProcess;

  beforeAll(async () => {
    stack = await startStack({ noWorker: true, env: { STEP_LEASE_MS: '1500' } });
    const c = stack.api.config;
    queue = new Queue(STEP_QUEUE, {
      connection: { url: c.REDIS_URL, maxRetriesPerRequest: null },
      prefix: c.QUEUE_PREFIX,
    });
    // One job at a time, so the order in which BullMQ hands out jobs is the order they run in.
    worker = spawnWorker(stack, { WORKER_CONCURRENCY: '1' });
  });

  afterAll(async () => {
    await queue?.close();
    if (worker) await stop(worker);
    await stack?.close();
  });

  const typed = async () =>
    (await stack.sim.events()).filter((e) => e.type === 'action' && e.action?.action === 'type');

  /**
   * The approval is spent (the step is `approved`, the run `running`) and its send is queued, but
   * before the worker takes it a job for the next step arrives, as a reconciler or a takeover can
   * queue one. BullMQ hands out unprioritised jobs before prioritised ones (the send has priority
   * 1), so the next step's job runs first, every time: it must find nothing to do.
   */
  // With room for step 3 the injected job would open it (and the script answers done); at the
  // step cap it would end the run step_cap. Either way the approved write would never be typed.
  for (const [maxSteps, ending] of [
    [20, { status: 'completed', end_reason: 'done', step_count: 3 }],
    [2, { status: 'stopped', end_reason: 'step_cap', step_count: 2 }],
  ] as const) {
    it(`opens no step after an approved write before that write is sent, and then sends it once (max_steps ${maxSteps})`, async () => {
      await stack.sim.reset();
      await stack.configure({ planner: await stack.planner(ONE_WRITE), max_steps: maxSteps });
      const run = await stack.start();
      const held = await stack.waitFor(
        run.id,
        (r) => r.status === 'awaiting_approval' || isEnded(r),
      );
      expect(held.status).toBe('awaiting_approval');
      const n = held.pending_approval.step;
      await stack.api.request('POST', `/api/approvals/${held.pending_approval.id}/approve`, {
        token: stack.tokens.approver,
        json: {},
      });

      await queue.pause();
      const resumed = stack.api.request('POST', `/api/computer-use/runs/${run.id}/resume`, {
        token: stack.tokens.operator,
      });
      const spent = await stack.waitFor(run.id, (r) => r.status !== 'awaiting_approval');
      expect(spent).toMatchObject({ status: 'running', step_count: n });
      await queue.add(
        JOB.step,
        { runId: run.id, n: n + 1 },
        { jobId: `${run.id}.${n + 1}.inject` },
      );
      expect(await queue.getPrioritizedCount()).toBe(1); // the approved send, waiting its turn
      await queue.resume();

      expect((await resumed).status).toBe(200);
      const done = await stack.waitFor(run.id, isEnded, 30_000);
      expect(done).toMatchObject(ending);
      expect(done.steps.slice(0, 2).map((st: any) => st.outcome)).toEqual([
        'sent',
        'sent_after_approval',
      ]);
      expect(await typed()).toHaveLength(1);
    });
  }
});

describe('Redis losing everything, and screen hosts failing', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('finishes a run after every queue key is gone (the reconciler rebuilds from PostgreSQL)', async () => {
    const waits = Array.from({ length: 12 }, () => ({ action: { action: 'wait', seconds: 0.3 } }));
    await stack.configure({ planner: await stack.planner({ steps: waits }) });
    const run = await stack.start();
    await stack.waitFor(run.id, (r) => r.step_count >= 3);
    // FLUSHALL, limited to this stack's keys: other test files share this Redis.
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const keys = await redis.keys(`${stack.api.config.QUEUE_PREFIX}:*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
    const done = await stack.waitFor(run.id, isEnded, 30_000);
    expect(done).toMatchObject({ status: 'completed', end_reason: 'done', step_count: 13 });
  });

  it('ends screen_host_error, without hanging, when the screen host goes down', async () => {
    const doomed = await startSimHost();
    await stack.grant(doomed.tokenEnv, doomed.url);
    try {
      await stack.configure({
        planner: await stack.planner({
          steps: [
            { action: { action: 'click', element: COMMAND } },
            { action: { action: 'wait', seconds: 1 } },
            { action: { action: 'click', element: COMMAND } },
          ],
        }),
        screen_url: doomed.url,
        screen_token_env: doomed.tokenEnv,
        screen_tls: { fingerprint_sha256: doomed.fingerprint },
      });
      const run = await stack.start();
      await stack.waitFor(run.id, (r) => r.step_count >= 2);
      await doomed.host.close();
      const failed = await stack.waitFor(run.id, isEnded, 30_000);
      expect(failed).toMatchObject({ status: 'failed', end_reason: 'screen_host_error' });
      const last = failed.steps.at(-1);
      expect(last.error).toMatch(/screen host/);
    } finally {
      await doomed.close().catch(() => undefined);
    }
  });

  it('records a clear error when the host answers a broken PNG', async () => {
    const broken: ScreenBackend = {
      name: 'broken',
      size: () => ({ width: 1280, height: 800 }),
      screenshot: async () => ({
        png: Buffer.concat([
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
          Buffer.alloc(64, 7),
        ]),
        width: 1280,
        height: 800,
      }),
      perform: async () => undefined,
      elements: () => null,
      typingTarget: () => 'unknown',
      close: async () => undefined,
    };
    const sim = await startSimHost();
    const host = await startScreenHost({
      backend: broken,
      token: process.env[sim.tokenEnv]!,
      port: 0,
      tls: { cert: sim.cert, key: sim.keyPem },
    });
    await stack.grant(sim.tokenEnv, host.url);
    try {
      await stack.configure({
        planner: await stack.planner({ steps: [{ action: { action: 'wait', seconds: 0.1 } }] }),
        screen_url: host.url,
        screen_token_env: sim.tokenEnv,
        screen_tls: { fingerprint_sha256: sim.fingerprint },
      });
      const run = await stack.start();
      const failed = await stack.waitFor(run.id, isEnded, 30_000);
      expect(failed).toMatchObject({ status: 'failed', end_reason: 'screen_host_error' });
      expect(failed.steps[0].error).toMatch(/PNG/);
      expect(failed.summary).toMatch(/PNG/);
      // The API process kept serving throughout.
      expect((await stack.api.request('GET', '/health/ready')).status).toBe(200);
    } finally {
      await host.close();
      await sim.close();
    }
  });
});

describe('screen hosts that misbehave, and steps that keep failing', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.close();
  });

  /** A real HTTPS screen host over `backend`, configured as the agent's, with `script`. */
  async function agentOn(backend: ScreenBackend, script: unknown) {
    const sim = await startSimHost();
    const host = await startScreenHost({
      backend,
      token: process.env[sim.tokenEnv]!,
      port: 0,
      tls: { cert: sim.cert, key: sim.keyPem },
    });
    await stack.grant(sim.tokenEnv, host.url);
    await stack.configure({
      planner: await stack.planner(script),
      screen_url: host.url,
      screen_token_env: sim.tokenEnv,
      screen_tls: { fingerprint_sha256: sim.fingerprint },
    });
    return {
      close: async () => {
        await host.close();
        await sim.close();
      },
    };
  }

  const backend = (screenshot: ScreenBackend['screenshot']) =>
    ({
      name: 'odd',
      size: () => ({ width: 640, height: 400 }),
      screenshot,
      perform: async () => undefined,
      elements: () => null,
      typingTarget: () => 'unknown',
      close: async () => undefined,
    }) satisfies ScreenBackend;

  it('ends screen_host_error, once, for a PNG whose header is fine and whose image data is not', async () => {
    const png = corruptIdat(grey(640, 400, '#c8c8c8'));
    // The host hands Warden the pixels it says the PNG holds (as the sim and x11 do), so only
    // Warden's own decoder meets the damage.
    const rgba = new Uint8Array(640 * 400 * 4).fill(200);
    for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
    const frame = { width: 640, height: 400, rgba, sha256: frameSha256(640, 400, rgba) };
    const agent = await agentOn(
      backend(async () => ({ png, width: 640, height: 400, frame })),
      { steps: [{ action: { action: 'wait', seconds: 0.1 } }] },
    );
    try {
      const run = await stack.start();
      const failed = await stack.waitFor(run.id, isEnded, 30_000);
      expect(failed).toMatchObject({ status: 'failed', end_reason: 'screen_host_error' });
      expect(failed.summary).toMatch(/screenshot Warden cannot use/);
      expect(failed.step_count).toBe(1);
      // Ended by its first job, not retried: the step recorded no failed attempt.
      const [step] = await stack.api.db.sql<{ failures: number }>(
        'SELECT failures FROM steps WHERE run_id = $1',
        [run.id],
      );
      expect(step.failures).toBe(0);
    } finally {
      await agent.close();
    }
  });

  it('stores a read on a screen whose data is damaged under correct CRCs, and holds no write on one', async () => {
    const good = grey(640, 400, '#c8c8c8');
    const damaged = corruptIdat(good);
    const rgba = new Uint8Array(640 * 400 * 4).fill(200);
    for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
    const frame = { width: 640, height: 400, rgba, sha256: frameSha256(640, 400, rgba) };
    let shots = 0;
    // The run's first screen is sound; every later one is damaged where only inflating shows.
    const agent = await agentOn(
      backend(async () => ({
        png: shots++ === 0 ? good : damaged,
        width: 640,
        height: 400,
        frame,
      })),
      {
        steps: [
          { action: { action: 'wait', seconds: 0.1 } },
          { action: { action: 'wait', seconds: 0.1 } },
          { action: { action: 'key', key: 'Enter' } },
        ],
      },
    );
    try {
      const run = await stack.start();
      const ended = await stack.waitFor(run.id, isEnded, 30_000);
      expect(ended).toMatchObject({ status: 'failed', end_reason: 'screen_host_error' });
      expect(ended.summary).toMatch(/screenshot Warden cannot use: the PNG is damaged/);
      // The read went on the damaged screen, which is stored as the host sent it.
      expect(ended.steps[1]).toMatchObject({ outcome: 'sent', classification: 'read' });
      const shown = await fetch(`${stack.api.url}/api/computer-use/runs/${run.id}/steps/2/screen`, {
        headers: { authorization: `Bearer ${stack.tokens.operator}` },
      });
      expect(shown.status).toBe(200);
      expect(Buffer.from(await shown.arrayBuffer()).equals(damaged)).toBe(true);
      // Served as stored, saying it is damaged (a browser may draw it in part); the first is not.
      expect(shown.headers.get('x-screen-damaged')).toMatch(/does not inflate/);
      const first = await fetch(`${stack.api.url}/api/computer-use/runs/${run.id}/steps/1/screen`, {
        headers: { authorization: `Bearer ${stack.tokens.operator}` },
      });
      expect(first.status).toBe(200);
      expect(first.headers.get('x-screen-damaged')).toBeNull();
      // The write was not held on it: no approval, nothing for a person to decide blind.
      expect(ended.steps[2].outcome).toBeNull();
      const approvals = await stack.api.db.sql('SELECT id FROM approvals WHERE run_id = $1', [
        run.id,
      ]);
      expect(approvals).toHaveLength(0);
    } finally {
      await agent.close();
    }
  });

  it('ends screen_host_error when the screen changes size while a write is held', async () => {
    let shots = 0;
    const small = grey(640, 400, '#c8c8c8');
    const large = grey(800, 500, '#c8c8c8');
    const agent = await agentOn(
      // The planning screenshot, then mask samples of two sizes.
      backend(async () => {
        const png = ++shots % 2 === 0 ? large : small;
        return { png, width: png === large ? 800 : 640, height: png === large ? 500 : 400 };
      }),
      { steps: [{ action: { action: 'type', text: 'hello' } }] },
    );
    try {
      const run = await stack.start();
      const failed = await stack.waitFor(run.id, isEnded, 30_000);
      expect(failed).toMatchObject({ status: 'failed', end_reason: 'screen_host_error' });
      expect(failed.summary).toMatch(/differ in size/);
      expect(failed.pending_approval).toBeNull();
    } finally {
      await agent.close();
    }
  });

  it('ends a run whose step fails job after job, instead of retrying it forever', async () => {
    const agent = await agentOn(
      backend(async () => ({ png: grey(640, 400, '#c8c8c8'), width: 640, height: 400 })),
      { steps: [{ action: { action: 'wait', seconds: 0.1 } }] },
    );
    // A database that refuses one statement: the step's move to planning, every time.
    await stack.api.db.sql(`
      CREATE FUNCTION refuse_planning() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
    await stack.api.db.sql(`
      CREATE TRIGGER refuse_planning BEFORE UPDATE OF phase ON steps
        FOR EACH ROW WHEN (NEW.phase = 'planning') EXECUTE FUNCTION refuse_planning()`);
    try {
      const run = await stack.start();
      const failed = await stack.waitFor(run.id, isEnded, 60_000);
      expect(failed).toMatchObject({ status: 'failed', end_reason: 'screen_host_error' });
      expect(failed.summary).toMatch(/the step failed 10 times \(the last: .*refused for the test/);
      expect(failed.step_count).toBe(1);
    } finally {
      await stack.api.db.sql('DROP TRIGGER refuse_planning ON steps');
      await stack.api.db.sql('DROP FUNCTION refuse_planning()');
      await agent.close();
    }
  });
});

describe('a screen that never stops moving', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('learns no mask over a large area that keeps moving, so the held write goes stale instead of being sent', async () => {
    const performed: unknown[] = [];
    const flicker: ScreenBackend = {
      name: 'flicker',
      size: () => ({ width: 1280, height: 800 }),
      screenshot: async () => ({ png: moving(1280, 800), width: 1280, height: 800 }),
      perform: async (action) => void performed.push(action),
      elements: () => null,
      typingTarget: () => 'unknown',
      close: async () => undefined,
    };
    const sim = await startSimHost();
    const host = await startScreenHost({
      backend: flicker,
      token: process.env[sim.tokenEnv]!,
      port: 0,
      tls: { cert: sim.cert, key: sim.keyPem },
    });
    await stack.grant(sim.tokenEnv, host.url);
    try {
      await stack.configure({
        planner: await stack.planner({ steps: [{ action: { action: 'type', text: 'hello' } }] }),
        screen_url: host.url,
        screen_token_env: sim.tokenEnv,
        screen_tls: { fingerprint_sha256: sim.fingerprint },
      });
      const run = await stack.start();
      const held = await stack.waitFor(
        run.id,
        (r) => r.status === 'awaiting_approval' || isEnded(r),
      );
      expect(held.pending_approval.volatile_pixels).toBe(0);
      await stack.api.request('POST', `/api/approvals/${held.pending_approval.id}/approve`, {
        token: stack.tokens.approver,
        json: {},
      });
      const resumed = await stack.api.request('POST', `/api/computer-use/runs/${run.id}/resume`, {
        token: stack.tokens.operator,
      });
      expect(resumed.body).toMatchObject({ status: 'stopped', end_reason: 'stale_screen' });
      expect(performed).toEqual([]);
    } finally {
      await host.close();
      await sim.close();
    }
  });
});

/** A plain screen of one colour. */
function grey(width: number, height: number, colour: string): Buffer {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = colour;
  g.fillRect(0, 0, width, height);
  return canvas.toBuffer('image/png');
}

/** A grey screen with a 200x200 block of noise that is new on every call: it never repeats. */
function moving(width: number, height: number): Buffer {
  // @napi-rs/canvas, not pngjs: pngjs's encoder is pathologically slow under Jest's module sandbox.
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#c8c8c8';
  g.fillRect(0, 0, width, height);
  for (let y = 100; y < 300; y += 4) {
    for (let x = 100; x < 300; x += 4) {
      g.fillStyle = `rgb(${Math.floor(Math.random() * 256)},0,0)`;
      g.fillRect(x, y, 4, 4);
    }
  }
  return canvas.toBuffer('image/png');
}

function exited(
  child: ChildProcess,
  ms: number,
): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    const timer = setTimeout(() => reject(new Error('the worker did not exit')), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}
