import { isEnded, startStack, Stack } from '../support/stack';
import { until } from '../support/until';

/**
 * Paths a review found untested end to end: four-eyes turned off, a run refused because computer
 * use is off, a planner that gives up (`fail`), a write whose outcome nobody can know
 * (`outcome_unknown`), a step that fails job after job while sending, and a run cancelled while
 * its planner thinks. Real API, worker, PostgreSQL, Redis and an HTTPS sim host.
 */

const COMMAND = { role: 'textbox', name: 'Command field' };
const ONE_WRITE = {
  steps: [
    { action: { action: 'click', element: COMMAND } },
    { step: 'the write', action: { action: 'type', text: '/nVA03' } },
    { action: { action: 'done', summary: 'typed' } },
  ],
};

/** Its first step waits (as a slow model would) until the status bar says GO. */
const SLOW_READ = {
  steps: [
    { when: { text: '^GO$' }, patience: 60, action: { action: 'click', element: COMMAND } },
    { action: { action: 'done', summary: 'clicked' } },
  ],
};

describe('end reasons and refusals, end to end', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.close();
  });

  beforeEach(async () => {
    await stack.sim.reset();
  });

  const typed = async () =>
    (await stack.sim.events()).filter((e) => e.type === 'action' && e.action?.action === 'type');
  const audit = async (runId: string) =>
    (await stack.api.request('GET', `/api/audit?run_id=${runId}`, { token: stack.tokens.auditor }))
      .body.items as Array<{ type: string; actor: string; details: Record<string, unknown> }>;

  /** A run of ONE_WRITE whose write bob approved, not yet resumed. */
  async function approvedWrite(): Promise<{ run: { id: string }; approvalId: string }> {
    await stack.configure({ planner: await stack.planner(ONE_WRITE) });
    const run = await stack.start();
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r));
    expect(held.status).toBe('awaiting_approval');
    const approvalId = held.pending_approval.id as string;
    const approved = await stack.api.request('POST', `/api/approvals/${approvalId}/approve`, {
      token: stack.tokens.approver,
      json: {},
    });
    expect(approved.status).toBe(200);
    return { run, approvalId };
  }

  it('lets the starter approve their own run with four_eyes off, once', async () => {
    await stack.configure({
      planner: await stack.planner(ONE_WRITE),
      four_eyes: false,
      reason: 'a one-person team',
    });
    // olga (with both permissions) starts the run and approves its write herself.
    const run = await stack.start('change order 4711', 'sap-orders', stack.tokens.both);
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r));
    expect(held.status).toBe('awaiting_approval');
    const approved = await stack.api.request(
      'POST',
      `/api/approvals/${held.pending_approval.id}/approve`,
      { token: stack.tokens.both, json: {} },
    );
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', decided_by: 'olga' });
    const resumed = await stack.api.request('POST', `/api/computer-use/runs/${run.id}/resume`, {
      token: stack.tokens.both,
    });
    expect(resumed.status).toBe(200);
    const done = await stack.waitFor(run.id, isEnded);
    expect(done).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(await typed()).toHaveLength(1);
    const config = await stack.api.request('GET', '/api/audit?type=computer_use.config', {
      token: stack.tokens.auditor,
    });
    expect(JSON.stringify(config.body.items.at(-1).details)).toContain('four_eyes');
  });

  it('refuses a run while computer use is off, with the reason audited', async () => {
    const r = await stack.api.request('PUT', '/api/admin/computer-use', {
      token: stack.tokens.admin,
      json: { enabled: false, agents: {} },
    });
    expect(r.status).toBe(200);
    const refused = await stack.api.request('POST', '/api/computer-use/runs', {
      token: stack.tokens.operator,
      json: { agent: 'sap-orders', goal: 'x' },
    });
    expect([refused.status, refused.body.message]).toEqual([
      409,
      expect.stringMatching(/turned off/),
    ]);
    const events = await stack.api.request('GET', '/api/audit?type=computer_use.refused', {
      token: stack.tokens.auditor,
    });
    expect(events.body.items.at(-1).details.why).toMatch(/turned off/);
  });

  it('ends failed/fail when the planner gives up, with its reason', async () => {
    await stack.configure({
      planner: await stack.planner({
        steps: [{ action: { action: 'fail', reason: 'the order is locked by another user' } }],
      }),
    });
    const run = await stack.start();
    const ended = await stack.waitFor(run.id, isEnded);
    expect(ended).toMatchObject({
      status: 'failed',
      end_reason: 'fail',
      summary: 'the order is locked by another user',
    });
    expect(ended.steps[0]).toMatchObject({ outcome: 'ended' });
    expect((await audit(run.id)).at(-1)).toMatchObject({
      type: 'computer_use.end',
      details: { end_reason: 'fail' },
    });
  });

  it('ends failed/outcome_unknown when the host fails half-way through an approved write', async () => {
    const { run, approvalId } = await approvedWrite();
    // The host types, then answers 500: whether it acted only the screen can say.
    await stack.sim.call('POST', '/sim/fail-next', { when: 'after' });
    await stack.api.request('POST', `/api/computer-use/runs/${run.id}/resume`, {
      token: stack.tokens.operator,
    });
    const ended = await stack.waitFor(run.id, isEnded);
    expect(ended).toMatchObject({ status: 'failed', end_reason: 'outcome_unknown' });
    expect(ended.summary).toMatch(/check the screen/);
    expect(ended.steps[1].outcome).toBeNull();
    expect(ended.steps[1].error).toMatch(/whether it acted is unknown/);
    // It did act, once, and Warden claims no send it cannot prove: the write is audited as one
    // whose outcome is unknown, with the approval it was sent on.
    expect(await typed()).toHaveLength(1);
    const events = await audit(run.id);
    const types = events.map((e) => e.type);
    expect(types).not.toContain('computer_use.write');
    expect(events.find((e) => e.type === 'computer_use.write.unknown')?.details).toMatchObject({
      action: { action: 'type', text: '/nVA03' },
      approval_id: approvalId,
      approved_by: 'bob',
      error: expect.stringMatching(/whether it acted is unknown/),
    });
    expect(types.at(-1)).toBe('computer_use.end');
  });

  it('audits a write whose outcome is unknown even when the run was cancelled while it was on its way', async () => {
    const { run, approvalId } = await approvedWrite();
    // The host types, then hangs for 3 s and answers 500; the operator cancels meanwhile (the
    // resume answers once its step is done, so it is awaited after the cancel).
    await stack.sim.call('POST', '/sim/fail-next', { when: 'after', delay_ms: 3000 });
    const resumed = stack.api.request('POST', `/api/computer-use/runs/${run.id}/resume`, {
      token: stack.tokens.operator,
    });
    await until('the host typing', async () => (await typed()).length === 1);
    const cancelled = await stack.api.request('POST', `/api/computer-use/runs/${run.id}/cancel`, {
      token: stack.tokens.operator,
    });
    expect(cancelled.body).toMatchObject({ status: 'stopped', end_reason: 'cancelled' });
    expect((await resumed).status).toBe(200);
    // The worker still records what became of the write it had sent.
    const settled = await stack.waitFor(run.id, (r) => r.steps[1]?.ended_at != null);
    expect(settled).toMatchObject({ status: 'stopped', end_reason: 'cancelled' });
    expect(settled.steps[1]).toMatchObject({
      outcome: null,
      error: expect.stringMatching(/whether it acted is unknown/),
    });
    const events = await audit(run.id);
    expect(events.filter((e) => e.type === 'computer_use.write.unknown')).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({
          approval_id: approvalId,
          action: { action: 'type', text: '/nVA03' },
        }),
      }),
    ]);
    expect(await typed()).toHaveLength(1);
  });

  /**
   * A database that refuses to end a sending step of `action` with an outcome (sent, or any
   * other) while letting everything else through, an end with no outcome included: every job on
   * that step then fails with an unexpected error, after the host acted.
   */
  async function refusingToRecord<T>(action: string, work: () => Promise<T>): Promise<T> {
    await stack.api.db.sql(`
      CREATE FUNCTION refuse_recording() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
    await stack.api.db.sql(`
      CREATE TRIGGER refuse_recording BEFORE UPDATE ON steps FOR EACH ROW
        WHEN (OLD.phase = 'sending' AND NEW.phase = 'done' AND NEW.outcome IS NOT NULL AND OLD.action->>'action' = '${action}')
        EXECUTE FUNCTION refuse_recording()`);
    try {
      return await work();
    } finally {
      await stack.api.db.sql('DROP TRIGGER refuse_recording ON steps');
      await stack.api.db.sql('DROP FUNCTION refuse_recording()');
    }
  }

  it('audits an approved write as one whose outcome is unknown when its step fails job after job while sending', async () => {
    const { run, approvalId } = await approvedWrite();
    const ended = await refusingToRecord('type', async () => {
      await stack.api.request('POST', `/api/computer-use/runs/${run.id}/resume`, {
        token: stack.tokens.operator,
      });
      return stack.waitFor(run.id, isEnded, 90_000);
    });
    expect(ended).toMatchObject({ status: 'failed', end_reason: 'outcome_unknown' });
    expect(ended.summary).toMatch(/the step failed 10 times .*refused for the test/);
    expect(ended.steps[1]).toMatchObject({
      outcome: null,
      ended_at: expect.any(String),
      error: expect.stringMatching(/whether the screen host acted is unknown/),
    });
    // The host typed once; Warden could not record it, and says what it cannot know.
    expect(await typed()).toHaveLength(1);
    const [step] = await stack.api.db.sql<{ id: string }>(
      'SELECT id FROM steps WHERE run_id = $1 AND n = 2',
      [run.id],
    );
    const events = await audit(run.id);
    expect(events.map((e) => e.type)).not.toContain('computer_use.write');
    expect(events.filter((e) => e.type === 'computer_use.write.unknown')).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({
          action: { action: 'type', text: '/nVA03' },
          idempotency_key: step.id,
          approval_id: approvalId,
          approved_by: 'bob',
          resumed_by: 'olga',
        }),
      }),
    ]);
    expect(events.at(-1)?.type).toBe('computer_use.end');
  }, 120_000);

  it('audits an unapproved write as one whose outcome is unknown, with its authority, when its step fails job after job while sending', async () => {
    await stack.configure({
      planner: await stack.planner(ONE_WRITE),
      require_write_approval: false,
      reason: 'a test of unknown outcomes',
    });
    const ended = await refusingToRecord('type', async () => {
      const run = await stack.start();
      return stack.waitFor(run.id, isEnded, 90_000);
    });
    expect(ended).toMatchObject({ status: 'failed', end_reason: 'outcome_unknown' });
    expect(await typed()).toHaveLength(1);
    const unknown = (await audit(ended.id)).filter((e) => e.type === 'computer_use.write.unknown');
    expect(unknown).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({
          action: { action: 'type', text: '/nVA03' },
          approval_id: null,
          without_approval: 'require_write_approval is off for this agent',
        }),
      }),
    ]);
  }, 120_000);

  it('records a read whose step fails job after job while sending as of unknown outcome, with no write event', async () => {
    await stack.configure({ planner: await stack.planner(ONE_WRITE) });
    const ended = await refusingToRecord('click', async () => {
      const run = await stack.start();
      return stack.waitFor(run.id, isEnded, 90_000);
    });
    expect(ended).toMatchObject({ status: 'failed', end_reason: 'outcome_unknown', step_count: 1 });
    expect(ended.steps[0]).toMatchObject({
      classification: 'read',
      outcome: null,
      ended_at: expect.any(String),
      error: expect.stringMatching(/whether the screen host acted is unknown/),
    });
    const types = (await audit(ended.id)).map((e) => e.type);
    expect(types).not.toContain('computer_use.write');
    expect(types).not.toContain('computer_use.write.unknown');
  }, 120_000);

  it('ends the step of a run cancelled while its planner thinks, and sends nothing', async () => {
    await stack.configure({ planner: await stack.planner(SLOW_READ) });
    const run = await stack.start();
    await stack.waitFor(run.id, (r) => r.step_count === 1 || isEnded(r));
    await new Promise((r) => setTimeout(r, 300)); // the planner is looking for GO
    const cancelled = await stack.api.request('POST', `/api/computer-use/runs/${run.id}/cancel`, {
      token: stack.tokens.operator,
    });
    expect(cancelled.body).toMatchObject({ status: 'stopped', end_reason: 'cancelled' });
    // The step ends with its run, in the cancel's own transaction.
    expect(cancelled.body.steps[0]).toMatchObject({
      outcome: 'ended',
      ended_at: expect.any(String),
      error: expect.stringMatching(/the run ended \(cancelled\)/),
    });
    // The planner answers after all; its worker finds the step ended and sends nothing.
    await stack.sim.poke('GO');
    await until('the step job to finish', async () => {
      const [step] = await stack.api.db.sql<{ timings: unknown[] | null }>(
        'SELECT timings FROM steps WHERE run_id = $1 AND n = 1',
        [run.id],
      );
      return (step.timings?.length ?? 0) > 0;
    });
    const after = await stack.run(run.id);
    expect(after).toMatchObject({ status: 'stopped', end_reason: 'cancelled', step_count: 1 });
    expect(after.steps[0]).toMatchObject({
      outcome: 'ended',
      ended_at: cancelled.body.steps[0].ended_at,
    });
    expect((await stack.sim.events()).filter((e) => e.type === 'action')).toEqual([]);
  });
});
