import { isEnded, startStack, Stack } from '../support/stack';
import { until } from '../support/until';

/**
 * The promises an approver relies on, each tried hard: a held write is sent once, only after
 * approval, only onto the screen that was approved, and never after a rejection, a cancel,
 * an expiry or a kill switch. Real API, worker, PostgreSQL, Redis and an HTTPS sim host.
 */

const COMMAND = { role: 'textbox', name: 'Command field' };
/** One read (focus the command field), one write (type into it), then done. */
const ONE_WRITE = {
  steps: [
    { action: { action: 'click', element: COMMAND } },
    { step: 'the write', action: { action: 'type', text: '/nVA03' } },
    { action: { action: 'done', summary: 'typed' } },
  ],
};

describe('governance of held writes', () => {
  let stack: Stack;
  let oneWrite: string;

  beforeAll(async () => {
    stack = await startStack();
    oneWrite = await stack.planner(ONE_WRITE);
    await stack.configure({ planner: oneWrite });
  });

  afterAll(async () => {
    await stack?.close();
  });

  beforeEach(async () => {
    await stack.sim.blink(false);
    await stack.sim.reset();
  });

  /** What the sim performed of type "type" (the write of ONE_WRITE). */
  const typed = async () =>
    (await stack.sim.events()).filter((e) => e.type === 'action' && e.action?.action === 'type');

  async function heldRun(): Promise<{ id: string; approvalId: string; step: number }> {
    const run = await stack.start();
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r));
    expect(held.status).toBe('awaiting_approval');
    return { id: run.id, approvalId: held.pending_approval.id, step: held.pending_approval.step };
  }

  const approve = (approvalId: string) =>
    stack.api.request('POST', `/api/approvals/${approvalId}/approve`, {
      token: stack.tokens.approver,
      json: {},
    });
  const resume = (id: string) =>
    stack.api.request('POST', `/api/computer-use/runs/${id}/resume`, {
      token: stack.tokens.operator,
    });

  it('sends nothing before approval, however often resume is called', async () => {
    const { id } = await heldRun();
    const attempts = await Promise.all(Array.from({ length: 10 }, () => resume(id)));
    expect(attempts.map((a) => a.status)).toEqual(Array(10).fill(409));
    expect(await typed()).toEqual([]);
    const run = await stack.run(id);
    expect(run.status).toBe('awaiting_approval');
    await stack.api.request('POST', `/api/computer-use/runs/${id}/cancel`, {
      token: stack.tokens.operator,
    });
  });

  it('of 20 concurrent resumes, one sends and the rest get 409', async () => {
    const { id, approvalId } = await heldRun();
    expect((await approve(approvalId)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 20 }, () => resume(id)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(409)]);
    const run = await stack.waitFor(id, isEnded);
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(run.steps[1]).toMatchObject({ classification: 'write', outcome: 'sent_after_approval' });
    expect(await typed()).toHaveLength(1);
    // Replays of the same key after the fact do not act again either.
    const approval = await stack.api.request('GET', `/api/approvals/${approvalId}`, {
      token: stack.tokens.approver,
    });
    expect(approval.body).toMatchObject({ status: 'spent', spent_by: 'olga', decided_by: 'bob' });
  });

  it('stops stale_screen, sending nothing, when the screen changed after approval', async () => {
    const { id, approvalId } = await heldRun();
    await approve(approvalId);
    await stack.sim.poke('Another user locked order 4711');
    const answer = await resume(id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'stopped', end_reason: 'stale_screen' });
    expect(answer.body.steps[1]).toMatchObject({
      outcome: 'stale',
      error: expect.stringMatching(/pixels? changed|changed/),
    });
    expect(await typed()).toEqual([]);
    const audit = await stack.api.request(
      'GET',
      `/api/audit?run_id=${id}&type=computer_use.write.stale`,
      {
        token: stack.tokens.auditor,
      },
    );
    expect(audit.body.items).toHaveLength(1);
  });

  it('is not fooled by a blinking caret, and still sees a real change under it', async () => {
    await stack.sim.blink(true);
    const first = await heldRun();
    // The mask is learnt after the hold, while the approval is open.
    const heldApproval = () =>
      stack.api.request('GET', `/api/approvals/${first.approvalId}`, {
        token: stack.tokens.approver,
      });
    await until(
      'the mask learnt',
      async () => (await heldApproval()).body.volatile_mask !== 'learning',
    );
    const held = await heldApproval();
    expect(held.body.volatile_mask).toBe('learnt');
    expect(held.body.volatile_pixels).toBeGreaterThan(0);
    expect(held.body.volatile_pixels).toBeLessThan(1000);
    await approve(first.approvalId);
    await new Promise((r) => setTimeout(r, 400)); // let the caret move
    const sent = await resume(first.id);
    // The held write is step 2, or later when the caret blinked under a read before it (the read
    // met a changed screen and was planned again): found by the approval's step, not by index.
    const steps = sent.body.steps as Array<{ n: number; classification: string; outcome: string }>;
    expect(steps.find((s) => s.n === first.step)).toMatchObject({ outcome: 'sent_after_approval' });
    expect(steps.filter((s) => s.classification === 'write').map((s) => s.n)).toEqual([first.step]);
    expect(await typed()).toHaveLength(1);

    await stack.sim.reset();
    await stack.sim.blink(true);
    const second = await heldRun();
    await approve(second.approvalId);
    await stack.sim.poke('Order 4711 is being processed by another user');
    const stale = await resume(second.id);
    expect(stale.body).toMatchObject({ status: 'stopped', end_reason: 'stale_screen' });
    expect(await typed()).toEqual([]);
  });

  it('ends the run on reject without acting', async () => {
    const { id, approvalId } = await heldRun();
    const rejected = await stack.api.request('POST', `/api/approvals/${approvalId}/reject`, {
      token: stack.tokens.approver,
      json: { comment: 'wrong transaction' },
    });
    expect(rejected.status).toBe(200);
    const run = await stack.run(id);
    expect(run).toMatchObject({ status: 'stopped', end_reason: 'rejected' });
    expect(run.steps[1]).toMatchObject({ outcome: 'rejected' });
    expect((await resume(id)).status).toBe(409);
    expect((await approve(approvalId)).status).toBe(409);
    expect(await typed()).toEqual([]);
    const audit = await stack.api.request('GET', `/api/audit?run_id=${id}`, {
      token: stack.tokens.auditor,
    });
    const types = audit.body.items.map((e: { type: string }) => e.type);
    expect(types).toEqual([
      'computer_use.start',
      'computer_use.write.held',
      'approval.decided',
      'computer_use.write.refused',
      'computer_use.end',
    ]);
  });

  it('sends nothing once the run is cancelled, even with an approval in hand', async () => {
    const { id, approvalId } = await heldRun();
    await approve(approvalId);
    const cancelled = await stack.api.request('POST', `/api/computer-use/runs/${id}/cancel`, {
      token: stack.tokens.operator,
    });
    expect(cancelled.body).toMatchObject({ status: 'stopped', end_reason: 'cancelled' });
    expect((await resume(id)).status).toBe(409);
    expect(await typed()).toEqual([]);
    const approval = await stack.api.request('GET', `/api/approvals/${approvalId}`, {
      token: stack.tokens.approver,
    });
    expect(approval.body.status).toBe('expired');
  });

  it('sends nothing when the kill switch is engaged between approval and resume', async () => {
    const { id, approvalId } = await heldRun();
    await approve(approvalId);
    const kill = await stack.api.request('PUT', '/api/admin/agents/sap-orders/kill-switch', {
      token: stack.tokens.admin,
      json: { engaged: true, reason: 'incident 42' },
    });
    expect(kill.status).toBe(200);
    try {
      const answer = await resume(id);
      expect(answer.body).toMatchObject({ status: 'stopped', end_reason: 'killed' });
      expect(await typed()).toEqual([]);
      const refused = await stack.api.request('POST', '/api/computer-use/runs', {
        token: stack.tokens.operator,
        json: { agent: 'sap-orders', goal: 'x' },
      });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/kill switch/);
    } finally {
      await stack.api.request('PUT', '/api/admin/agents/sap-orders/kill-switch', {
        token: stack.tokens.admin,
        json: { engaged: false, reason: 'resolved' },
      });
    }
  });

  it('lets another tenant see none of it (404, not 403)', async () => {
    const { id, approvalId } = await heldRun();
    const other = stack.tokens.other;
    for (const [method, path] of [
      ['GET', `/api/computer-use/runs/${id}`],
      ['GET', `/api/computer-use/runs/${id}/steps/1/screen`],
      ['POST', `/api/computer-use/runs/${id}/resume`],
      ['POST', `/api/computer-use/runs/${id}/cancel`],
      ['GET', `/api/approvals/${approvalId}`],
      ['POST', `/api/approvals/${approvalId}/approve`],
      ['POST', `/api/approvals/${approvalId}/reject`],
    ]) {
      const answer = await stack.api.request(method, path, {
        token: other,
        json: method === 'POST' ? {} : undefined,
      });
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 404 });
    }
    const lists = await Promise.all([
      stack.api.request('GET', '/api/computer-use/runs', { token: other }),
      stack.api.request('GET', '/api/approvals', { token: other }),
    ]);
    for (const list of lists) expect(list.body.items).toEqual([]);
    expect((await stack.run(id)).status).toBe('awaiting_approval');
    await stack.api.request('POST', `/api/computer-use/runs/${id}/cancel`, {
      token: stack.tokens.operator,
    });
  });
});

describe('runs that end by their limits', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.close();
  });

  afterEach(async () => {
    // A test that failed half-way must not leave the screen host leased to its run.
    for (const status of ['queued', 'running', 'awaiting_approval']) {
      const { body } = await stack.api.request('GET', `/api/computer-use/runs?status=${status}`, {
        token: stack.tokens.operator,
      });
      for (const run of body.items as Array<{ id: string }>) {
        await stack.api.request('POST', `/api/computer-use/runs/${run.id}/cancel`, {
          token: stack.tokens.operator,
        });
      }
    }
  });

  async function runScript(script: unknown, agent: Record<string, unknown> = {}) {
    await stack.configure({ planner: await stack.planner(script), ...agent });
    const run = await stack.start();
    return stack.waitFor(run.id, isEnded, 40_000);
  }

  const events = async (id: string) =>
    (await stack.api.request('GET', `/api/audit?run_id=${id}`, { token: stack.tokens.auditor }))
      .body.items as Array<{
      type: string;
      details: Record<string, unknown>;
    }>;

  it('stops at the step cap', async () => {
    const run = await runScript(
      { steps: Array.from({ length: 10 }, () => ({ action: { action: 'wait', seconds: 0.1 } })) },
      { max_steps: 3 },
    );
    expect(run).toMatchObject({ status: 'stopped', end_reason: 'step_cap', step_count: 3 });
    const end = (await events(run.id)).at(-1)!;
    expect(end).toMatchObject({ type: 'computer_use.end', details: { end_reason: 'step_cap' } });
  });

  it('stops at the time cap, counting only active time', async () => {
    const run = await runScript(
      { steps: Array.from({ length: 6 }, () => ({ action: { action: 'wait', seconds: 4 } })) },
      { max_seconds: 10 },
    );
    expect(run).toMatchObject({ status: 'stopped', end_reason: 'time_cap' });
    expect(run.active_seconds).toBeGreaterThanOrEqual(10);
    expect(run.step_count).toBeLessThan(6);
  });

  it('stops a script at its first action Warden refuses, telling why and planning nothing after it', async () => {
    // (A model may try again after a refusal, up to the third: test/models/models-failures.e2e-spec.ts.)
    const run = await runScript({
      steps: [
        { action: { action: 'wait', seconds: 0.1 } },
        { step: 'off the screen', action: { action: 'click', x: 5000, y: 10 } },
        { action: { action: 'click', x: 10, y: 9000 } },
        { action: { action: 'scroll', x: 99999, y: 10, direction: 'down' } },
      ],
    });
    expect(run).toMatchObject({ status: 'failed', end_reason: 'fail', invalid_actions: 1 });
    expect(run.steps.map((s: { outcome: string }) => s.outcome)).toEqual([
      'sent',
      'refused',
      'ended',
    ]);
    expect(run.steps[1].why).toMatch(/outside the screenshot/);
    expect(run.steps[2].action.reason).toBe(
      `steps[1] (step "off the screen") was refused by Warden's rules (${run.steps[1].why}), so the script stops there`,
    );
    const types = (await events(run.id)).map((e) => e.type);
    expect(types.filter((t) => t === 'computer_use.action.refused')).toHaveLength(1);
  });

  /** Eight scrolls on a screen that does not scroll: nothing changes. */
  const SCROLLS = {
    steps: Array.from({ length: 8 }, () => ({
      action: { action: 'scroll', x: 640, y: 400, direction: 'down', amount: 3 },
    })),
  };

  it('stops stalled when screen actions change nothing', async () => {
    const run = await runScript(SCROLLS, { stall_after: 3 });
    expect(run).toMatchObject({ status: 'stopped', end_reason: 'stalled' });
    expect(run.step_count).toBe(3);
  });

  it('stops stalled on a host that encodes every screenshot into a file of its own', async () => {
    await stack.sim.reencode(true);
    try {
      const run = await runScript(SCROLLS, { stall_after: 3 });
      expect(run).toMatchObject({ status: 'stopped', end_reason: 'stalled' });
      expect(run.step_count).toBe(3);
      // Three files, one picture: the steps saw other bytes each time.
      expect(new Set(run.steps.map((s: { screen_sha256: string }) => s.screen_sha256)).size).toBe(
        3,
      );
    } finally {
      await stack.sim.reencode(false);
    }
  });

  it('expires a held write nobody resumed', async () => {
    await stack.configure({ planner: await stack.planner(ONE_WRITE), approval_timeout_seconds: 5 });
    const started = await stack.start();
    const held = await stack.waitFor(started.id, (r) => r.status === 'awaiting_approval');
    await stack.api.request('POST', `/api/approvals/${held.pending_approval.id}/approve`, {
      token: stack.tokens.approver,
      json: {},
    });
    const run = await stack.waitFor(started.id, isEnded, 15_000);
    expect(run).toMatchObject({ status: 'stopped', end_reason: 'approval_expired' });
    const typed = (await stack.sim.events()).filter((e) => e.action?.action === 'type');
    expect(typed).toEqual([]);
  });

  it('lets a weakened agent act on writes straight away, auditing each', async () => {
    await stack.sim.reset();
    const run = await runScript(ONE_WRITE, {
      require_write_approval: false,
      reason: 'sandbox client 800',
    });
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(run.steps[1]).toMatchObject({ classification: 'write', outcome: 'sent' });
    const writes = (await events(run.id)).filter((e) => e.type === 'computer_use.write');
    expect(writes).toHaveLength(1);
    expect(writes[0].details).toMatchObject({
      without_approval: expect.stringMatching(/require_write_approval/),
    });
    await stack.configure({ planner: await stack.planner(ONE_WRITE) });
  });

  it('runs one run per screen host at a time, the others waiting in order', async () => {
    await stack.configure({ planner: await stack.planner(ONE_WRITE) });
    const first = await stack.start('first');
    const second = await stack.start('second');
    const third = await stack.start('third');
    await stack.waitFor(first.id, (r) => r.status === 'awaiting_approval');
    expect((await stack.run(second.id)).status).toBe('queued');
    expect((await stack.run(third.id)).status).toBe('queued');
    await stack.api.request('POST', `/api/computer-use/runs/${first.id}/cancel`, {
      token: stack.tokens.operator,
    });
    await stack.waitFor(second.id, (r) => r.status === 'awaiting_approval');
    expect((await stack.run(third.id)).status).toBe('queued');
    await stack.api.request('POST', `/api/computer-use/runs/${second.id}/cancel`, {
      token: stack.tokens.operator,
    });
    await stack.waitFor(third.id, (r) => r.status === 'awaiting_approval');
    await stack.api.request('POST', `/api/computer-use/runs/${third.id}/cancel`, {
      token: stack.tokens.operator,
    });
  });

  it('refuses runs it cannot start, with the reason audited', async () => {
    const refusals = [[{ agent: 'nobody', goal: 'x' }, 404, /no agent "nobody"/]] as const;
    for (const [body, status, message] of refusals) {
      const answer = await stack.api.request('POST', '/api/computer-use/runs', {
        token: stack.tokens.operator,
        json: body,
      });
      expect(answer.status).toBe(status);
      expect(answer.body.message).toMatch(message);
    }
    const saved = process.env[stack.sim.tokenEnv];
    delete process.env[stack.sim.tokenEnv];
    try {
      const answer = await stack.api.request('POST', '/api/computer-use/runs', {
        token: stack.tokens.operator,
        json: { agent: 'sap-orders', goal: 'x' },
      });
      expect(answer.status).toBe(409);
      expect(answer.body.message).toContain(stack.sim.tokenEnv);
    } finally {
      process.env[stack.sim.tokenEnv] = saved;
    }
    const audit = await stack.api.request('GET', '/api/audit?type=computer_use.refused', {
      token: stack.tokens.auditor,
    });
    expect(audit.body.items.map((e: { details: { why: string } }) => e.details.why)).toEqual([
      expect.stringMatching(/no agent "nobody"/),
      expect.stringContaining(stack.sim.tokenEnv),
    ]);
  });
});
