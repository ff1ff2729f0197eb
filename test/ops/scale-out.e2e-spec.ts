/**
 * Scale out, proven (issue 18 §4): two API processes and three worker processes on one PostgreSQL
 * and one Redis, 100 runs that each hold a write, resumes sent to either API (some to both at
 * once), Redis restarted for real (SHUTDOWN NOSAVE, then a new redis-server on the same port: an
 * empty Redis, not a FLUSHALL) while runs are in flight and again while resumes are, PostgreSQL
 * stopped and started while runs are mid-step. Every run must end `done`, every held write reach
 * its screen host exactly once, every run's steps be 1..N with none missing, the audit chain
 * verify, and the same five processes (same pids, never restarted) carry it all, each one still
 * working after the last restart.
 *
 * PostgreSQL and Redis are the test's own (test/support/own-services.ts): the machine's are shared
 * with other tests, which a restart would break.
 */
import { Queue } from 'bullmq';
import { DatabaseError } from 'pg';
import { STEP_QUEUE } from '../../src/queue/step-queue';
import { until } from '../support/until';
import { startProcessStack, type ProcessStack } from '../support/process-stack';
import {
  startOwnPostgres,
  startOwnRedis,
  type OwnPostgres,
  type OwnRedis,
} from '../support/own-services';

const RUNS = 100;
/** Keep the processes' logs even when the test passes (they are kept anyway when it fails). */
const KEEP_LOGS = process.env.WARDEN_TEST_KEEP_LOGS === '1';
const WAVE = 10;
/**
 * How long each restart leaves its service down. The second Redis outage is long enough that
 * BullMQ's default reconnect backoff (which grows to 20 s) would leave the workers idle for
 * seconds after Redis is back; the test logs how long each wave took after its service returned.
 */
const REDIS_DOWN_MS = [3000, 10_000];
const PG_DOWN_MS = 3000;
const ENDED = ['completed', 'failed', 'stopped'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One write (a click on Save, held for approval), then one read; then the script says done. */
const WRITE_SCRIPT = {
  steps: [
    { step: 'save', action: { action: 'click', element: { role: 'button', name: 'Save' } } },
    { step: 'down', action: { action: 'key', key: 'ArrowDown' } },
  ],
};

const agentName = (i: number) => `scale-${String(i + 1).padStart(3, '0')}`;

describe('two APIs and three workers on one PostgreSQL and one Redis, both restarted', () => {
  let pg: OwnPostgres | undefined;
  let redis: OwnRedis | undefined;
  let stack: ProcessStack | undefined;
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
  };

  /** What the stack is started with; a failed test keeps the processes' logs (keepDir). */
  let options: Parameters<typeof startProcessStack>[0] | undefined;
  let passed = false;

  beforeAll(async () => {
    pg = await startOwnPostgres();
    redis = await startOwnRedis();
    options = {
      hosts: RUNS,
      apis: 2,
      workers: 3,
      // Far fewer steps at once than runs, so that jobs wait in Redis when it goes down.
      workerConcurrency: 2,
      pgAdminUrl: pg.adminUrl,
      redisUrl: redis.url,
      env: {
        // Lost jobs come back within a second; a held write's mask is learnt quickly.
        RECONCILE_INTERVAL_MS: '1000',
        STEP_LEASE_MS: '5000',
        MASK_INTERVAL_MS: '50',
      },
      nodeFlags: [],
      keepDir: KEEP_LOGS,
      log,
    };
    stack = await startProcessStack(options);
  }, 180_000);

  afterAll(async () => {
    if (options && !passed) options.keepDir = true;
    await stack?.close();
    await redis?.close();
    await pg?.close();
    if (!passed) console.log(lines.join('\n'));
  }, 60_000);

  /** SQL that waits out a restart of PostgreSQL instead of failing. */
  async function sql<T = any>(text: string, params?: unknown[]): Promise<T[]> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        return await stack!.sql<T>(text, params);
      } catch (error) {
        // An error PostgreSQL answered is the query's, unless it is about PostgreSQL going
        // down or starting up (class 57: operator intervention).
        const answered = error instanceof DatabaseError && !error.code?.startsWith('57');
        if (answered || Date.now() > deadline) throw error;
        await sleep(200);
      }
    }
  }

  /**
   * A call as a client would make it: retried on a network error or a 5xx (the API's database or
   * Redis was away) until an answer that decides, 2xx or 4xx. Answers every status seen.
   */
  async function decided(api: number, method: string, path: string, token: string, json?: unknown) {
    const seen: number[] = [];
    const deadline = Date.now() + 90_000;
    for (;;) {
      const answer = await stack!
        .callAt(api, method, path, token, json)
        .catch((error: unknown) => ({ status: 0, body: String(error) }));
      seen.push(answer.status);
      if (answer.status >= 200 && answer.status < 500) return { ...answer, seen };
      if (Date.now() > deadline) {
        throw new Error(
          `${method} ${path} on API ${api}: ${seen.join(',')} ${JSON.stringify(answer.body)}`,
        );
      }
      await sleep(250);
    }
  }

  async function statuses(ids: string[]): Promise<Map<string, string>> {
    const rows = await sql<{ id: string; status: string }>(
      `SELECT id, status FROM runs WHERE id = ANY($1)`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.status]));
  }

  async function waitFor(ids: string[], wanted: string[], ms: number, what: string) {
    let behind: string[] = ids;
    await until(
      `every run ${what}`,
      async () => {
        const now = await statuses(ids);
        behind = ids.filter((id) => !wanted.includes(now.get(id) ?? ''));
        return behind.length === 0;
      },
      {
        ms,
        every: 100,
        seen: async () => {
          const runs = await sql(
            `SELECT r.id, r.status, r.end_reason, r.step_count,
                    (SELECT json_agg(json_build_object('n', s.n, 'phase', s.phase, 'failures', s.failures, 'lease_until', s.lease_until) ORDER BY s.n) FROM steps s WHERE s.run_id = r.id) AS steps
               FROM runs r WHERE r.id = ANY($1)`,
            [behind.slice(0, 5)],
          );
          return `${behind.length} run(s) behind, e.g. ${JSON.stringify(runs, null, 1)}\n${lines.join('\n')}`;
        },
      },
    );
  }

  /** Step jobs waiting in Redis for a worker (what a restart of Redis loses). */
  async function waitingJobs(): Promise<number> {
    const queue = new Queue(STEP_QUEUE, {
      connection: { url: redis!.url, maxRetriesPerRequest: 1 },
      prefix: stack!.queuePrefix,
    });
    try {
      const counts = await queue.getJobCounts('wait', 'prioritized');
      return (counts.wait ?? 0) + (counts.prioritized ?? 0);
    } finally {
      await queue.close();
    }
  }

  /** Which workers (by pid) hold a step lease, sampled until `stop` is set. */
  function watchWorkers(): { seen: Set<number>; stop: () => Promise<void> } {
    const seen = new Set<number>();
    let stopped = false;
    const loop = (async () => {
      while (!stopped) {
        const rows = await stack!
          .sql<{ owner: string }>(
            `SELECT DISTINCT lease_owner AS owner FROM steps WHERE lease_owner IS NOT NULL`,
          )
          .catch(() => []);
        // lease_owner is host:pid:nonce (StepLease.workerId)
        for (const r of rows) seen.add(Number(r.owner.split(':').at(-2)));
        await sleep(20);
      }
    })();
    return {
      seen,
      stop: async () => {
        stopped = true;
        await loop;
      },
    };
  }

  it('finishes 100 runs with held writes, each write sent once, no step lost, no process restarted', async () => {
    const s = stack!;
    const tokens = s.tokens;
    const pidsAtStart = [...s.pids.apis, ...s.pids.workers];

    // An agent per sim host, all on the scripted planner that holds a write.
    const planner = await decided(0, 'POST', '/api/planners/scripted', tokens.admin, {
      name: 'scale-out held write',
      script: WRITE_SCRIPT,
    });
    expect(planner.status).toBe(201);
    const agents: Record<string, unknown> = {};
    s.hosts.forEach((h, i) => {
      agents[agentName(i)] = {
        screen_url: h.url,
        screen_token_env: s.tokenEnv,
        screen_tls: { fingerprint_sha256: h.fingerprint },
        system: 'SAP GUI (sim)',
        max_steps: 20,
        max_seconds: 300,
        planner: planner.body.planner.id,
      };
    });
    const configured = await decided(1, 'PUT', '/api/admin/computer-use', tokens.admin, {
      enabled: true,
      agents,
    });
    expect(configured.status).toBe(200);
    s.hosts.forEach((h, i) => h.sim.prepare(`warden scale-out host ${i + 1}`));

    // 100 runs, started on either API, ten at a time. A start is not idempotent: one answered
    // 5xx may have created its run (the answer can fail after the commit), so before starting
    // again the client looks for it, as a careful client without an idempotency key must.
    const start = async (i: number): Promise<string> => {
      const goal = `scale-out run ${i + 1}: save`;
      const deadline = Date.now() + 60_000;
      for (;;) {
        const started = await s
          .callAt(i % 2, 'POST', '/api/computer-use/runs', tokens.operator, {
            agent: agentName(i),
            goal,
          })
          .catch((error: unknown) => ({ status: 0, body: String(error) }));
        if (started.status === 201) return started.body.id as string;
        log(`start of run ${i + 1} answered ${started.status}: ${JSON.stringify(started.body)}`);
        if (started.status < 500 || Date.now() > deadline) {
          throw new Error(`start run ${i + 1}: ${started.status} ${JSON.stringify(started.body)}`);
        }
        await sleep(250);
        const mine = await decided(
          i % 2,
          'GET',
          `/api/computer-use/runs?agent=${agentName(i)}&limit=10`,
          tokens.operator,
        );
        const made = (mine.body.items as Array<{ id: string; goal: string }>).find(
          (r) => r.goal === goal,
        );
        if (made) return made.id;
      }
    };
    // Redis is restarted once 60 runs are started, while most of them are mid-step (their jobs
    // waiting in Redis are lost with it; the reconciler must re-add them from PostgreSQL), and
    // the last 40 are started into the outage.
    const ids: string[] = [];
    let firstRestart: Promise<void> | undefined;
    let waitingAtFirstRestart = 0;
    for (let i = 0; i < RUNS; i += WAVE) {
      if (i === 60) {
        const now = [...(await statuses(ids)).values()];
        const count = (status: string) => now.filter((x) => x === status).length;
        waitingAtFirstRestart = await waitingJobs();
        log(
          `Redis going down with ${count('awaiting_approval')} runs held, ${count('running')} running, ${count('queued')} queued; ${waitingAtFirstRestart} step jobs waiting in Redis`,
        );
        firstRestart = redis!
          .restart(REDIS_DOWN_MS[0])
          .then(() => log('Redis restarted (SHUTDOWN NOSAVE, new server on the same port)'));
      }
      ids.push(...(await Promise.all(Array.from({ length: WAVE }, (_, j) => start(i + j)))));
    }
    log(`${RUNS} runs started`);
    await firstRestart;
    await waitFor(ids, ['awaiting_approval'], 120_000, 'awaiting approval');
    log('every run holds its write');

    // Another person approves each held write, on either API.
    const inbox = await decided(0, 'GET', '/api/approvals?limit=200', tokens.approver);
    expect(inbox.status).toBe(200);
    const approvalOf = new Map<string, string>(
      (inbox.body.items as Array<{ id: string; run_id: string }>).map((a) => [a.run_id, a.id]),
    );
    expect(ids.filter((id) => !approvalOf.has(id))).toEqual([]);
    for (let i = 0; i < RUNS; i += 20) {
      await Promise.all(
        ids.slice(i, i + 20).map(async (id, j) => {
          const approved = await decided(
            (i + j) % 2,
            'POST',
            `/api/approvals/${approvalOf.get(id)}/approve`,
            tokens.approver,
            { comment: 'scale-out' },
          );
          // 409 when an earlier try that answered 5xx had approved it (a resume would say if not).
          expect([200, 409]).toContain(approved.status);
        }),
      );
    }
    log('every write approved');

    // Resumes in waves of ten, alternating between the APIs; two runs of each wave get a resume
    // sent to both APIs at once. PostgreSQL goes down with wave 4, Redis again with wave 7.
    const resumeAnswers = new Map<string, number[]>();
    const resume = async (api: number, id: string) => {
      const answer = await decided(
        api,
        'POST',
        `/api/computer-use/runs/${id}/resume`,
        tokens.operator,
      );
      resumeAnswers.set(id, [...(resumeAnswers.get(id) ?? []), ...answer.seen]);
      return answer.seen.join('→');
    };
    let restarts: Promise<void> = Promise.resolve();
    let backAt = 0;
    let workers: ReturnType<typeof watchWorkers> | undefined;
    /** Per restarted service: ms from its return to the last answer of the wave sent into it. */
    const lag: Record<string, number> = {};
    for (let w = 0; w < RUNS / WAVE; w++) {
      const wave = ids.slice(w * WAVE, (w + 1) * WAVE);
      const restarting = w === 3 ? 'PostgreSQL' : w === 6 ? 'Redis' : null;
      if (restarting === 'PostgreSQL') {
        restarts = pg!.restart(PG_DOWN_MS).then(() => {
          backAt = Date.now();
          log('PostgreSQL restarted (pg_ctl stop -m fast, start)');
        });
      }
      if (restarting === 'Redis') {
        // Once the wave's approved writes are queued: some of them, and the steps after the
        // writes of the wave before, wait in Redis when it goes.
        await restarts;
        restarts = sleep(300)
          .then(async () => log(`Redis going down, ${await waitingJobs()} step jobs waiting in it`))
          .then(() => redis!.restart(REDIS_DOWN_MS[1]))
          .then(() => {
            backAt = Date.now();
            log('Redis restarted again');
            workers = watchWorkers();
          });
      }
      if (restarting === 'PostgreSQL') log(`wave ${w + 1}: PostgreSQL going down`);
      const answers = await Promise.all(
        wave.flatMap((id, j) =>
          j < 2 ? [resume(0, id), resume(1, id)] : [resume((w + j) % 2, id)],
        ),
      );
      if (restarting) {
        await restarts;
        lag[restarting] = Date.now() - backAt;
      }
      log(
        `wave ${w + 1} resumed: ${answers.join(',')}${restarting ? ` (answered ${lag[restarting]} ms after ${restarting} was back)` : ''}`,
      );
    }
    await restarts;
    await waitFor(ids, ENDED, 120_000, 'ended');
    log('every run ended');
    await workers?.stop();

    // The first restart lost jobs that were waiting (so the reconciler had to re-add them).
    expect(waitingAtFirstRestart).toBeGreaterThan(0);

    // Every run ended done.
    const runs = await sql<{ id: string; status: string; end_reason: string; step_count: number }>(
      `SELECT id, status, end_reason, step_count FROM runs WHERE id = ANY($1)`,
      [ids],
    );
    expect(runs.filter((r) => r.status !== 'completed' || r.end_reason !== 'done')).toEqual([]);

    // Each held write reached its screen host exactly once (the sim's own record, what
    // GET /sim/events answers); each run's steps are 1..N, all done, the write sent once.
    const hostOf = new Map(ids.map((id, i) => [id, s.hosts[i]]));
    const writesAtHosts = ids.map((id) => ({
      id,
      clicks: hostOf
        .get(id)!
        .sim.app.eventLog()
        .filter((e) => e.type === 'action' && (e.action as { x?: number }).x !== undefined).length,
    }));
    expect(writesAtHosts.filter((w) => w.clicks !== 1)).toEqual([]);
    const steps = await sql<{
      run_id: string;
      n: number;
      phase: string;
      classification: string;
      outcome: string;
    }>(
      `SELECT run_id, n, phase, classification, outcome FROM steps WHERE run_id = ANY($1) ORDER BY run_id, n`,
      [ids],
    );
    const gaps: string[] = [];
    for (const run of runs) {
      const mine = steps.filter((x) => x.run_id === run.id);
      const ns = mine.map((x) => x.n);
      if (ns.join() !== Array.from({ length: run.step_count }, (_, k) => k + 1).join())
        gaps.push(`${run.id}: steps ${ns.join(',')} of ${run.step_count}`);
      if (mine.some((x) => x.phase !== 'done')) gaps.push(`${run.id}: a step not done`);
      const sentWrites = mine.filter((x) => x.outcome === 'sent_after_approval');
      if (sentWrites.length !== 1)
        gaps.push(`${run.id}: ${sentWrites.length} approved writes sent`);
    }
    expect(gaps).toEqual([]);
    // Of the two resumes sent at once, one spent the approval and the other was refused.
    const both = ids.filter((_, i) => i % WAVE < 2);
    for (const id of both) expect(resumeAnswers.get(id)).toContain(409);

    // The audit chain verifies.
    const verified = await decided(1, 'GET', '/api/audit/verify', tokens.auditor);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ ok: true });
    expect(verified.body.checked).toBeGreaterThan(RUNS * 3);

    // The same processes did it all, and each still works: both APIs answer ready, and every
    // worker held a step after the last restart.
    expect([...s.pids.apis, ...s.pids.workers]).toEqual(pidsAtStart);
    for (const p of s.processes) {
      expect({ pid: p.child.pid, exit: p.child.exitCode, signal: p.child.signalCode }).toEqual({
        pid: p.child.pid,
        exit: null,
        signal: null,
      });
    }
    for (const i of [0, 1]) {
      const ready = await decided(i, 'GET', '/health/ready', tokens.operator);
      expect(ready.status).toBe(200);
    }
    expect([...(workers?.seen ?? [])].sort()).toEqual([...s.pids.workers].sort());
    passed = true;
    console.log(lines.join('\n'));
  }, 420_000);
});
