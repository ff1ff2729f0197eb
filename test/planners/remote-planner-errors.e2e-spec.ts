/**
 * How a step waiting for a remote planner ends as a model error, through the real stack: no worker
 * asks (planner_offline), the worker that claimed it goes quiet (planner_offline, even while
 * another token of the family asks under its name), no answer by the
 * deadline (planner_timeout), an error answer (planner_failed, keeping only a code or its length),
 * and too many of the tenant's steps waiting (planner_busy, 429 at a run's start).
 */
import {
  FAMILY,
  PLANNER,
  SLOW,
  SLOW_PLANNER,
  startRemoteStack,
  type RemoteStack,
} from '../support/planner-work';
import { isEnded, type Stack } from '../support/stack';

describe('remote planner errors, end to end', () => {
  let remote: RemoteStack;
  let stack: Stack;
  const claim: RemoteStack['claim'] = (...a) => remote.claim(...a);
  const answer: RemoteStack['answer'] = (...a) => remote.answer(...a);
  const heartbeat: RemoteStack['heartbeat'] = (...a) => remote.heartbeat(...a);
  const waitingWork: RemoteStack['waitingWork'] = (...a) => remote.waitingWork(...a);

  beforeAll(async () => {
    remote = await startRemoteStack();
    ({ stack } = remote);
  });

  afterEach(() => remote.stopBeats());

  afterAll(async () => {
    await stack?.close();
  });

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

    // A worker claims, then stops asking (killed mid-step), while another token of the family
    // asks under the same worker name: that keeps no claim alive but its own.
    const other = (await stack.api.token('acme', 'other-box', ['planners.serve'], [FAMILY])).token;
    const stop = await heartbeat('w1');
    const run = await stack.start('offline mid-step');
    const item = await waitingWork(run.id);
    expect((await claim(item.id, 'w1')).status).toBe(200);
    stop();
    const impostor = await heartbeat('w1', FAMILY, other);
    const quiet = await stack.waitFor(run.id, isEnded);
    impostor();
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

    // Word-shaped, but no code of the list: a lower-cased IBAN is kept as its length only.
    const iban = await stack.start('pay to DE89 3704 0044 0532 0130 00');
    const c = await waitingWork(iban.id);
    await claim(c.id, 'w1');
    expect((await answer(c.id, { worker: 'w1', error: 'de89370400440532013000' })).status).toBe(
      200,
    );
    const third = await stack.waitFor(iban.id, isEnded);
    expect(third.summary).toBe(
      `planner_failed: the worker "w1" answered an error of 22 characters (its text is not kept: it could quote the step's input)`,
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
