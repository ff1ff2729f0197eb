/**
 * The reference planner worker (`npm run planner-worker`) as a real process against the real
 * stack, answering from the fake OpenAI-compatible provider (the customer's own model): a run
 * completes through it; two workers on the same steps ask the model once per step (one claim
 * wins); a worker killed while its model thinks leaves its step to fail `planner_offline`. The
 * family and the worker's token are the operator's, through the CLI (audited).
 */
import {
  ENTRIES,
  runEntry,
  startEntry,
  stop,
  onlyPathAndHome,
  type Started,
  waitUntil,
} from '../../scripts/lib/processes';
import { TEST_REDIS_URL } from '../support/env';
import {
  chatAction,
  chatCompletion,
  imagesOf,
  startFakeProvider,
  textOf,
  type FakeProvider,
} from '../support/fake-provider';
import { isEnded, startStack, type Stack } from '../support/stack';

const FAMILY = 'acme-own';
const PLANNER = `${FAMILY}-2026-12-01-normal`;

describe('the reference planner worker', () => {
  let stack: Stack;
  let model: FakeProvider;
  let token: string;
  const workers = new Set<Started>();

  const cli = (...args: string[]) =>
    runEntry(ENTRIES.cli, args, { DATABASE_URL: stack.api.db.url, REDIS_URL: TEST_REDIS_URL });

  const startWorker = (name: string): Started => {
    const started = startEntry(
      ENTRIES.plannerWorker,
      [
        '--family',
        FAMILY,
        '--base-url',
        `${model.url}/v1`,
        '--model',
        'local-vlm',
        '--worker',
        name,
        '--poll-ms',
        '200',
      ],
      { env: onlyPathAndHome({ WARDEN_URL: stack.api.url, WARDEN_PLANNER_TOKEN: token }) },
    );
    workers.add(started);
    return started;
  };

  /** Until this worker asks for work (its heartbeat), and the catalog says the family serves. */
  const serving = (started: Started, name: string) =>
    waitUntil(started, 'serving', async () => {
      const [beat] = await stack.api.db.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM planner_workers
          WHERE worker = $1 AND last_seen_at > now() - interval '1 second'`,
        [name],
      );
      const r = await stack.api.request('GET', `/api/planners/${PLANNER}`, {
        token: stack.tokens.admin,
      });
      return beat.n > 0 && r.body.planner?.serving === true;
    });

  beforeAll(async () => {
    stack = await startStack({ env: { PLANNER_HEARTBEAT_SECONDS: '2' } });
    model = await startFakeProvider();
    const added = await cli(
      'planners',
      'remote',
      'add',
      '--family',
      FAMILY,
      '--version',
      '2026-12-01',
      '--deadline',
      '60',
      '--pixels',
      'yes',
      '--note',
      'our model next to our data',
    );
    expect(added).toMatchObject({ code: 0 });
    expect(added.stdout).toContain(
      `registered remote planner ${PLANNER}: deadline 60 s, pixels yes`,
    );
    const created = await cli(
      'token',
      'create',
      '--tenant',
      'acme',
      '--subject',
      'own-model-box',
      '--permissions',
      'planners.serve',
      '--families',
      FAMILY,
    );
    expect(created.code).toBe(0);
    token = created.stdout.trim().split('\n').at(-1)!;
    await stack.allowPlanner(FAMILY);
    await stack.configure({ planner: PLANNER, max_steps: 5 });
  }, 120_000);

  afterEach(async () => {
    for (const w of workers) await stop(w.child);
    workers.clear();
    model.reset();
  });

  afterAll(async () => {
    await stack?.close();
    await model?.close();
  });

  it('is registered through the CLI: listed, audited in the tenant, refused when malformed', async () => {
    const listed = await cli('planners', 'remote', 'list');
    expect(listed.stdout).toContain(PLANNER);
    const bad = await cli(
      'planners',
      'remote',
      'add',
      '--family',
      'x-y',
      '--deadline',
      '0',
      '--pixels',
      'no',
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--deadline must be/);
    const noFamilies = await cli(
      'token',
      'create',
      '--tenant',
      'acme',
      '--subject',
      's',
      '--permissions',
      'planners.serve',
    );
    expect(noFamilies.code).not.toBe(0);
    expect(noFamilies.stderr + noFamilies.stdout).toMatch(/--families/);
    const audit = await stack.api.request('GET', '/api/audit?type=planner.remote_changed', {
      token: stack.tokens.auditor,
    });
    expect(audit.body.items).toEqual([
      expect.objectContaining({
        type: 'planner.remote_changed',
        details: expect.objectContaining({
          change: 'added',
          id: PLANNER,
          deadline_seconds: 60,
          pixels: true,
          note: 'our model next to our data',
        }),
      }),
    ]);
  }, 120_000);

  it('completes a run through the customer’s model', async () => {
    model.script([
      chatCompletion(chatAction({ action: 'key', key: 'Tab' })),
      chatCompletion(chatAction({ action: 'done', summary: 'done by our own model' })),
    ]);
    await serving(startWorker('ref-1'), 'ref-1');
    const run = await stack.start('tab once, then finish');
    const ended = await stack.waitFor(run.id, isEnded, 60_000);
    expect(ended).toMatchObject({
      status: 'completed',
      end_reason: 'done',
      summary: 'done by our own model',
    });
    expect(ended.steps.map((s: { outcome: string }) => s.outcome)).toEqual(['sent', 'ended']);
    expect(ended.steps[0].model).toMatchObject({ provider: 'remote', model: PLANNER });
    expect(model.requests).toHaveLength(2);
    // pixels: yes — the model saw the screen, and the task and the outline in words.
    expect(imagesOf(model.requests[0])).toHaveLength(1);
    expect(textOf(model.requests[0])).toContain('tab once, then finish');
    expect(textOf(model.requests[1])).toMatch(/^1\. \{.*"key":"Tab".*\}: sent/m);
  }, 120_000);

  it('asks the model once per step with two workers on the same family', async () => {
    model.script([
      chatCompletion(chatAction({ action: 'key', key: 'Tab' })),
      chatCompletion(chatAction({ action: 'done', summary: 'one answer each' })),
    ]);
    const a = startWorker('ref-a');
    const b = startWorker('ref-b');
    await serving(a, 'ref-a');
    await serving(b, 'ref-b');
    const run = await stack.start('two workers');
    const ended = await stack.waitFor(run.id, isEnded, 60_000);
    expect(ended).toMatchObject({ status: 'completed', summary: 'one answer each' });
    expect(model.requests).toHaveLength(2);
    const [work] = await stack.api.db.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM planner_work WHERE run_id = $1`,
      [run.id],
    );
    expect(work.n).toBe(2);
  }, 120_000);

  it('leaves the step to fail planner_offline when the worker is killed while its model thinks', async () => {
    let release: () => void = () => undefined;
    const thinking = new Promise<void>((r) => (release = r));
    let asked!: () => void;
    const modelAsked = new Promise<void>((r) => (asked = r));
    model.script([], async () => {
      asked();
      await thinking;
      return { status: 500, json: { error: { message: 'gone' } } };
    });
    const actions = async () =>
      (await stack.sim.events()).filter((e) => e.type === 'action').length;
    const before = await actions();
    const started = startWorker('ref-killed');
    await serving(started, 'ref-killed');
    const run = await stack.start('killed mid-step');
    await modelAsked;
    started.child.kill('SIGKILL');
    await started.exited;
    const ended = await stack.waitFor(run.id, isEnded, 60_000);
    release();
    expect(ended).toMatchObject({ status: 'failed', end_reason: 'model_error' });
    expect(ended.summary).toMatch(
      /^planner_offline: the worker "ref-killed" that claimed the step/,
    );
    expect(await actions()).toBe(before);
  }, 120_000);
});
