/**
 * Remote planners through the real stack: API, worker, PostgreSQL, Redis and a sim screen host
 * over HTTPS, with the test as the planner's worker over the worker API. A step publishes its
 * input and waits with no job running; the worker's answer carries the run on, and its decision is
 * judged like a model's, on the frame it was given. One claim of many wins; a malformed decision is
 * a 400 and an invalid action; a worker sees only its tenant's work. The errors are in
 * remote-planner-errors.e2e-spec.ts.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { STEP_QUEUE } from '../../src/queue/step-queue';
import type { HttpResult } from '../support/api';
import {
  FAMILY,
  PLANNER,
  SLOW,
  SLOW_PLANNER,
  startRemoteStack,
  type RemoteStack,
} from '../support/planner-work';
import { isEnded, type Stack } from '../support/stack';
import { until } from '../support/until';

describe('remote planners, end to end', () => {
  let remote: RemoteStack;
  let stack: Stack;
  let worker: string;
  let globexWorker: string;
  const get: RemoteStack['get'] = (...a) => remote.get(...a);
  const claim: RemoteStack['claim'] = (...a) => remote.claim(...a);
  const answer: RemoteStack['answer'] = (...a) => remote.answer(...a);
  const heartbeat: RemoteStack['heartbeat'] = (...a) => remote.heartbeat(...a);
  const waitingWork: RemoteStack['waitingWork'] = (...a) => remote.waitingWork(...a);

  beforeAll(async () => {
    remote = await startRemoteStack();
    ({ stack, worker, globexWorker } = remote);
  });

  afterEach(() => remote.stopBeats());

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
    let counts: Record<string, number> = {};
    await until(
      'no job active or waiting',
      async () => {
        counts = await queue.getJobCounts('active', 'waiting', 'delayed');
        return counts.active + counts.waiting === 0;
      },
      { ms: 10_000, seen: () => counts },
    );
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

  it('refuses a decision holding a card number as a JSON number with 400, recording it masked', async () => {
    const stop = await heartbeat('w1');
    await stack.configure({ planner: PLANNER, max_steps: 5 });
    const run = await stack.start('card as a number');
    const item = await waitingWork(run.id);
    await claim(item.id, 'w1');
    const bad = await answer(item.id, {
      worker: 'w1',
      decision: { action: 'type', text: 4111111111111111 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^decision: /);
    const next = await waitingWork(run.id);
    const seen = await stack.run(run.id);
    expect(seen.steps[0]).toMatchObject({
      classification: 'invalid',
      outcome: 'refused',
      action: { action: 'type', text: '••••••••••••1111' },
    });
    expect(JSON.stringify(seen)).not.toContain('4111111111111111');
    await claim(next.id, 'w1');
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
});
