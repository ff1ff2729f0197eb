/**
 * Remote planners (DESIGN §8) through the real stack: API, worker, PostgreSQL, Redis and a sim
 * screen host over HTTPS, with the test as the planner's worker over the worker API. A step
 * publishes its input and waits with no job running; the worker's answer carries the run on, and
 * its decision is judged like a model's. One claim of many wins; a malformed decision is a 400
 * and an invalid action; a worker sees only its tenant's work; and a step ends as a model error
 * when no worker asks (planner_offline), the worker goes quiet after its claim, no answer comes
 * by the deadline (planner_timeout), the worker answers an error (planner_failed), or the tenant
 * has too many steps waiting (planner_busy, 429 at the run's start).
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { STEP_QUEUE } from '../src/queue/step-queue';
import { RemoteFamilies } from '../src/computer-use/remote/remote-families.service';
import type { HttpResult } from './support/api';
import { isEnded, startStack, type Stack } from './support/stack';

const FAMILY = 'acme-vision';
const PLANNER = `${FAMILY}-1-normal`;
const SLOW = 'acme-slow';
const SLOW_PLANNER = `${SLOW}-1-normal`;

describe('remote planners, end to end', () => {
  let stack: Stack;
  /** planners.serve for acme-vision and acme-slow in acme. */
  let worker: string;
  /** planners.serve for acme-vision in globex. */
  let globexWorker: string;
  const beats = new Set<NodeJS.Timeout>();

  const get = (token: string, families: string, name: string) =>
    stack.api.request('GET', `/api/planner-work?families=${families}&worker=${name}`, { token });
  const claim = (id: string, name: string, token = worker) =>
    stack.api.request('POST', `/api/planner-work/${id}/claim`, { token, json: { worker: name } });
  const answer = (id: string, body: Record<string, unknown>, token = worker) =>
    stack.api.request('POST', `/api/planner-work/${id}/answer`, { token, json: body });

  /** A worker that has asked once (its heartbeat) and keeps asking until stopped. */
  const heartbeat = async (name: string, families = FAMILY, token = worker) => {
    expect((await get(token, families, name)).status).toBe(200);
    const timer = setInterval(() => void get(token, families, name).catch(() => undefined), 200);
    beats.add(timer);
    return () => {
      clearInterval(timer);
      beats.delete(timer);
    };
  };

  /** Waits for the run's step to be listed as waiting work, and answers it. */
  const waitingWork = async (runId: string, name = 'w1', families = FAMILY) => {
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      const listed = await get(worker, families, name);
      expect(listed.status).toBe(200);
      const item = listed.body.items.find((i: { run_id: string }) => i.run_id === runId);
      if (item) return item;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no waiting work for run ${runId}`);
  };

  beforeAll(async () => {
    stack = await startStack({ env: { PLANNER_HEARTBEAT_SECONDS: '2' } });
    const families = stack.api.app.get(RemoteFamilies);
    await families.add({ family: FAMILY, deadline: '60', pixels: 'no' }, 'os:test');
    await families.add({ family: SLOW, deadline: '2', pixels: 'yes' }, 'os:test');
    worker = (await stack.api.token('acme', 'planner-box', ['planners.serve'], [FAMILY, SLOW]))
      .token;
    globexWorker = (await stack.api.token('globex', 'planner-box', ['planners.serve'], [FAMILY]))
      .token;
    // Not public: the operator allows the families to acme (the catalog's rule).
    await stack.allowPlanner(FAMILY);
    await stack.allowPlanner(SLOW);
  });

  afterEach(() => {
    for (const timer of beats) clearInterval(timer);
    beats.clear();
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('is in the catalog: remote, not public, serving only while a worker asks', async () => {
    const { api, tokens } = stack;
    const before = await api.request('GET', `/api/planners/${PLANNER}`, { token: tokens.admin });
    expect(before.body.planner).toMatchObject({
      id: PLANNER,
      runs: 'remote',
      pixels: false,
      public: false,
      available: true,
      serving: false,
    });
    expect((await get(worker, FAMILY, 'w1')).status).toBe(200);
    const after = await api.request('GET', '/api/planners', { token: tokens.admin });
    const listed = after.body.planners.find((p: { id: string }) => p.id === PLANNER);
    expect(listed).toMatchObject({ runs: 'remote', serving: true });
    expect(after.body.planners.find((p: { id: string }) => p.id === SLOW_PLANNER)).toMatchObject({
      pixels: true,
    });
    // Another tenant's worker asking does not make it serve for acme, nor the reverse.
    const globexAdmin = tokens.other;
    const globex = await api.request('GET', `/api/planners/${PLANNER}`, { token: globexAdmin });
    expect(globex.body.planner).toMatchObject({ available: false, serving: false });
  });

  it('completes a run: the step waits with no job, the answer carries it on, judged like a model', async () => {
    const { api, sim } = stack;
    const stop = await heartbeat('w1');
    await stack.configure({ planner: PLANNER, max_steps: 5 });
    const run = await stack.start('tab to the next field, then finish');
    const first = await waitingWork(run.id);
    expect(first).toMatchObject({ planner: PLANNER, family: FAMILY, step: 1, status: 'waiting' });

    // Waiting: no job is active or queued (the step holds no worker slot), only its delayed check.
    const queue = stack.worker.get<Queue>(getQueueToken(STEP_QUEUE), { strict: false });
    const idle = async () => {
      const until = Date.now() + 10_000;
      for (;;) {
        const counts = await queue.getJobCounts('active', 'waiting', 'delayed');
        if (counts.active + counts.waiting === 0 || Date.now() > until) return counts;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const counts = await idle();
    expect(counts).toMatchObject({ active: 0, waiting: 0 });
    expect(counts.delayed).toBeGreaterThanOrEqual(1);

    const claimed = await claim(first.id, 'w1');
    expect(claimed.status).toBe(200);
    const input = claimed.body.work.input;
    expect(input).toMatchObject({
      schema: 'warden.planner-input/1',
      planner: PLANNER,
      task: 'tab to the next field, then finish',
      system: 'SAP GUI (sim)',
      step: 1,
      max_steps: 5,
      frame: { width: expect.any(Number), height: expect.any(Number) },
      history: [],
      last_outcome: null,
      image: null,
    });
    expect(input.frame.id).toMatch(/^[0-9a-f]{64}$/);
    expect(input.outline.elements.length).toBeGreaterThan(0);
    expect(input.outline.text).toContain('"');
    // Frame ids match the step's record.
    const waitingRun = await stack.run(run.id);
    expect(waitingRun.steps[0].screen_sha256).toBe(input.frame.png_sha256);

    const sent = await answer(first.id, { worker: 'w1', decision: { action: 'key', key: 'Tab' } });
    expect(sent.status).toBe(200);
    // Once: a second answer is refused.
    const again = await answer(first.id, { worker: 'w1', decision: { action: 'key', key: 'Tab' } });
    expect(again.status).toBe(409);

    const second = await waitingWork(run.id);
    expect(second.step).toBe(2);
    expect((await claim(second.id, 'w1')).body.work.input).toMatchObject({
      step: 2,
      last_outcome: 'sent',
      history: [expect.objectContaining({ n: 1, action: { action: 'key', key: 'Tab' } })],
    });
    await answer(second.id, { worker: 'w1', decision: { action: 'done', summary: 'tabbed' } });
    const ended = await stack.waitFor(run.id, isEnded);
    stop();
    expect(ended).toMatchObject({ status: 'completed', end_reason: 'done', summary: 'tabbed' });
    expect(ended.steps[0]).toMatchObject({
      action: { action: 'key', key: 'Tab' },
      classification: 'read',
      outcome: 'sent',
      model: { provider: 'remote', model: PLANNER, calls: 1 },
    });
    const actions = (await sim.events()).filter((e) => e.type === 'action');
    expect(actions).toEqual([
      expect.objectContaining({ action: expect.objectContaining({ key: 'Tab' }) }),
    ]);
    const audit = await api.request('GET', `/api/audit?run_id=${run.id}`, {
      token: stack.tokens.auditor,
    });
    expect(audit.body.items.map((e: { type: string }) => e.type)).toContain('computer_use.end');
  }, 90_000);

  it('lets one of many concurrent claims win, and only the winner answer', async () => {
    const stop = await heartbeat('w1');
    await stack.configure({ planner: PLANNER, max_steps: 5 });
    const run = await stack.start('race');
    const item = await waitingWork(run.id);
    const names = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'];
    const claims: HttpResult[] = await Promise.all(names.map((n) => claim(item.id, n)));
    const won = claims.filter((c) => c.status === 200);
    expect(won).toHaveLength(1);
    expect(claims.filter((c) => c.status === 409)).toHaveLength(names.length - 1);
    const winner = won[0].body.work.worker as string;
    const loser = names.find((n) => n !== winner)!;
    const byLoser = await answer(item.id, {
      worker: loser,
      decision: { action: 'done', summary: 'x' },
    });
    expect(byLoser.status).toBe(409);
    expect(byLoser.body.message).toMatch(/claimed by another worker/);
    // Not listed any more once claimed.
    const listed = await get(worker, FAMILY, 'w1');
    expect(listed.body.items.map((i: { id: string }) => i.id)).not.toContain(item.id);
    const byWinner = await answer(item.id, {
      worker: winner,
      decision: { action: 'done', summary: 'won' },
    });
    expect(byWinner.status).toBe(200);
    const ended = await stack.waitFor(run.id, isEnded);
    stop();
    expect(ended).toMatchObject({ status: 'completed', summary: 'won' });
    expect(ended.steps).toHaveLength(1);
  }, 90_000);

  it('refuses a malformed decision with 400 naming the field, and counts an invalid action', async () => {
    const stop = await heartbeat('w1');
    await stack.configure({ planner: PLANNER, max_steps: 5 });
    const run = await stack.start('malformed');
    const item = await waitingWork(run.id);
    await claim(item.id, 'w1');
    const bad = await answer(item.id, {
      worker: 'w1',
      decision: { action: 'click', x: 'left', y: 3 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^decision: .*“x”/);
    const next = await waitingWork(run.id);
    expect(next.step).toBe(2);
    const seen = await stack.run(run.id);
    expect(seen.invalid_actions).toBe(1);
    expect(seen.steps[0]).toMatchObject({ classification: 'invalid', outcome: 'refused' });
    // The planner is told why at the next step.
    const input = (await claim(next.id, 'w1')).body.work.input;
    expect(input.last_outcome).toBe('refused');
    expect(input.history[0].why).toMatch(/“x”/);
    await answer(next.id, { worker: 'w1', decision: { action: 'done', summary: 'ok' } });
    await stack.waitFor(run.id, isEnded);
    stop();
  }, 90_000);

  it('judges a decision on the frame it was given: a screen that changed since refuses it', async () => {
    const { sim } = stack;
    const stop = await heartbeat('w1');
    await stack.configure({ planner: PLANNER, max_steps: 5 });
    const run = await stack.start('frame rule');
    const item = await waitingWork(run.id);
    const given = (await claim(item.id, 'w1')).body.work.input;
    const sentActions = async () => (await sim.events()).filter((e) => e.type === 'action').length;
    const before = await sentActions();
    // While the worker thinks, the screen changes (a status message appears).
    await sim.poke('Order 4711 is being changed by someone else');
    await answer(item.id, { worker: 'w1', decision: { action: 'key', key: 'Tab' } });
    const next = await waitingWork(run.id);
    expect(next.step).toBe(2);
    const seen = await stack.run(run.id);
    expect(seen.steps[0]).toMatchObject({
      action: { action: 'key', key: 'Tab' },
      outcome: 'screen_changed',
      screen_sha256: given.frame.png_sha256,
    });
    expect(await sentActions()).toBe(before);
    const again = (await claim(next.id, 'w1')).body.work.input;
    expect(again.frame.id).not.toBe(given.frame.id);
    expect(again.last_outcome).toBe('screen_changed');
    expect(again.outline.text).toContain('Order 4711 is being changed by someone else');
    await answer(next.id, { worker: 'w1', decision: { action: 'done', summary: 'ok' } });
    await stack.waitFor(run.id, isEnded);
    stop();
    await sim.reset();
  }, 90_000);

  it("never shows a worker another tenant's work, nor families its token does not serve", async () => {
    const stop = await heartbeat('w1');
    await stack.configure({ planner: PLANNER, max_steps: 5 });
    const run = await stack.start('isolation');
    const item = await waitingWork(run.id);
    const globex = await get(globexWorker, FAMILY, 'g1');
    expect(globex.status).toBe(200);
    expect(globex.body.items).toEqual([]);
    expect((await claim(item.id, 'g1', globexWorker)).status).toBe(404);
    const notServed = await get(globexWorker, `${FAMILY},${SLOW}`, 'g1');
    expect(notServed.status).toBe(403);
    expect(notServed.body).toMatchObject({ error: 'planner_family_not_served' });
    // Without planners.serve, the worker API is closed.
    expect((await get(stack.tokens.admin, FAMILY, 'a1')).status).toBe(403);
    await claim(item.id, 'w1');
    await answer(item.id, { worker: 'w1', decision: { action: 'done', summary: 'ok' } });
    await stack.waitFor(run.id, isEnded);
    stop();
  }, 90_000);

  it('ends the step planner_offline when no worker asks, or the claimer goes quiet', async () => {
    await stack.configure({ planner: PLANNER, max_steps: 5 });
    // Nobody asked for 2 s (the heartbeat in this stack): the first step is not even published.
    await new Promise((r) => setTimeout(r, 2100));
    const nobody = await stack.start('offline');
    const ended = await stack.waitFor(nobody.id, isEnded);
    expect(ended).toMatchObject({ status: 'failed', end_reason: 'model_error' });
    expect(ended.summary).toMatch(
      /^planner_offline: no worker of remote planner family acme-vision/,
    );

    // A worker claims, then stops asking (killed mid-step).
    const stop = await heartbeat('w1');
    const run = await stack.start('offline mid-step');
    const item = await waitingWork(run.id);
    expect((await claim(item.id, 'w1')).status).toBe(200);
    stop();
    const quiet = await stack.waitFor(run.id, isEnded);
    expect(quiet).toMatchObject({ status: 'failed', end_reason: 'model_error' });
    expect(quiet.summary).toMatch(/^planner_offline: the worker "w1" that claimed the step/);
    expect(quiet.steps[0].error).toBe(quiet.summary);
    // Too late: the answer of a step that ended is refused.
    const late = await answer(item.id, {
      worker: 'w1',
      decision: { action: 'done', summary: 'x' },
    });
    expect(late.status).toBe(409);
  }, 90_000);

  it('ends the step planner_timeout when no answer comes by the deadline', async () => {
    const stop = await heartbeat('w1', SLOW);
    await stack.configure({ planner: SLOW_PLANNER, max_steps: 5 });
    const run = await stack.start('timeout');
    const item = await waitingWork(run.id, 'w1', SLOW);
    const claimed = await claim(item.id, 'w1');
    // pixels: yes, the screenshot is in the input.
    const png = Buffer.from(claimed.body.work.input.image.base64, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const ended = await stack.waitFor(run.id, isEnded);
    stop();
    expect(ended).toMatchObject({ status: 'failed', end_reason: 'model_error' });
    expect(ended.summary).toBe("planner_timeout: no decision within the planner's deadline of 2 s");
  }, 90_000);

  it('ends the step planner_failed on an error answer, keeping only a code or its length', async () => {
    const stop = await heartbeat('w1');
    await stack.configure({ planner: PLANNER, max_steps: 5 });
    const coded = await stack.start('error with a code');
    const a = await waitingWork(coded.id);
    await claim(a.id, 'w1');
    expect((await answer(a.id, { worker: 'w1', error: 'model_unreachable' })).status).toBe(200);
    const first = await stack.waitFor(coded.id, isEnded);
    expect(first.summary).toBe(
      'planner_failed: the worker "w1" answered an error: model_unreachable',
    );

    const quoted = await stack.start('order 4711 for Mrs Secret');
    const b = await waitingWork(quoted.id);
    await claim(b.id, 'w1');
    const text = 'I could not do "order 4711 for Mrs Secret" on this screen';
    await answer(b.id, { worker: 'w1', error: text });
    const second = await stack.waitFor(quoted.id, isEnded);
    stop();
    expect(second.summary).toBe(
      `planner_failed: the worker "w1" answered an error of ${text.length} characters (its text is not kept: it could quote the step's input)`,
    );
    const [row] = await stack.api.db.sql<Record<string, unknown>>(
      'SELECT row_to_json(w)::text AS j FROM planner_work w WHERE id = $1',
      [b.id],
    );
    expect(String(row.j)).not.toContain('Mrs Secret", "error');
    expect(String(row.j)).not.toContain('I could not do');
  }, 90_000);

  it('refuses a ninth waiting step of a tenant planner_busy, and a run start with 429', async () => {
    const { api } = stack;
    const stop = await heartbeat('w1');
    await stack.configure({ planner: PLANNER, max_steps: 5 });
    const run = await stack.start('busy');
    const item = await waitingWork(run.id);
    // Seven more steps of the tenant waiting (as other runs' steps would be): eight in all.
    for (let n = 1001; n <= 1007; n++) {
      await api.db.sql(
        `INSERT INTO planner_work (tenant, family, planner, run_id, step, status, input, screen,
           deadline_at)
         VALUES ('acme', $1, $2, $3, $4, 'waiting', '{}', '{}', now() + interval '1 hour')`,
        [FAMILY, PLANNER, run.id, n],
      );
    }
    const refused = await api.request('POST', '/api/computer-use/runs', {
      token: stack.tokens.operator,
      json: { agent: 'sap-orders', goal: 'one too many' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'planner_busy' });
    expect(refused.body.message).toMatch(/8 steps waiting for remote planners/);

    // The run's own next step would be the ninth waiting: it ends planner_busy.
    await api.db.sql(
      `INSERT INTO planner_work (tenant, family, planner, run_id, step, status, input, screen,
         deadline_at)
       VALUES ('acme', $1, $2, $3, 1008, 'waiting', '{}', '{}', now() + interval '1 hour')`,
      [FAMILY, PLANNER, run.id],
    );
    await claim(item.id, 'w1');
    await answer(item.id, { worker: 'w1', decision: { action: 'key', key: 'Tab' } });
    const ended = await stack.waitFor(run.id, isEnded);
    stop();
    expect(ended).toMatchObject({ status: 'failed', end_reason: 'model_error' });
    expect(ended.summary).toMatch(/^planner_busy: tenant acme has 8 steps waiting/);
    expect(ended.steps).toHaveLength(2);
  }, 90_000);
});
