import { Queue } from 'bullmq';
import { PlannerAccess } from '../../src/computer-use/catalog/planner-access.service';
import { NAVIGATOR_PLANNER_ID } from '../../src/computer-use/planning/navigator/navigator-planner';
import { JOB, STEP_QUEUE } from '../../src/queue/step-queue';
import { isEnded, startStack, Stack } from '../support/stack';

/**
 * What an admin changes reaches runs already going (docs/step-flow.md): computer use turned off, the agent
 * removed, its kill switch, the tenant paused. Each is checked in the transaction that marks an
 * action `sending`, so a switch thrown while the planner thinks sends nothing, even for an agent
 * whose writes need no approval; queued runs wait; a new planner applies from the next step.
 */

const COMMAND = { role: 'textbox', name: 'Command field' };

/** Waits (as a slow model would) until the status bar says GO, then types: a write. */
const SLOW_WRITE = {
  steps: [
    {
      step: 'think',
      when: { text: '^GO$' },
      patience: 60,
      action: { action: 'click', element: COMMAND },
    },
    { action: { action: 'type', text: '/nVA03' } },
    { action: { action: 'done', summary: 'typed' } },
  ],
};

describe('admin switches reach runs already going', () => {
  let stack: Stack;
  let slowWrite: string;

  beforeAll(async () => {
    stack = await startStack();
    slowWrite = await stack.planner(SLOW_WRITE);
  });

  afterAll(async () => {
    await stack?.close();
  });

  beforeEach(async () => {
    await stack.sim.reset();
    // Writes act straight away: only the switches stand between the planner and the screen.
    await stack.configure({
      planner: slowWrite,
      require_write_approval: false,
      reason: 'switch test',
    });
  });

  const admin = (method: string, path: string, json: unknown) =>
    stack.api.request(method, path, { token: stack.tokens.admin, json });
  /** What the sim performed: every action that reached the screen. */
  const performed = async () => (await stack.sim.events()).filter((e) => e.type === 'action');

  /** Starts a run, waits until its first step's planner is waiting, throws the switch, then lets the planner answer. */
  async function switchWhilePlanning(flip: () => Promise<{ status: number }>) {
    const run = await stack.start();
    await stack.waitFor(run.id, (r) => r.step_count === 1 || isEnded(r));
    await new Promise((r) => setTimeout(r, 300)); // the planner is looking for GO
    expect((await flip()).status).toBe(200);
    await stack.sim.poke('GO');
    return stack.waitFor(run.id, isEnded, 30_000);
  }

  it('sends nothing when the kill switch is engaged while the planner thinks', async () => {
    try {
      const ended = await switchWhilePlanning(() =>
        admin('PUT', '/api/admin/agents/sap-orders/kill-switch', {
          engaged: true,
          reason: 'incident 7',
        }),
      );
      expect(ended).toMatchObject({ status: 'stopped', end_reason: 'killed' });
      expect(ended.summary).toBe('kill switch engaged: incident 7');
      expect(ended.steps[0]).toMatchObject({ outcome: 'refused', classification: 'read' });
      expect(ended.steps[0].error).toMatch(/not sent: kill switch engaged/);
      expect(await performed()).toEqual([]);
    } finally {
      await admin('PUT', '/api/admin/agents/sap-orders/kill-switch', {
        engaged: false,
        reason: 'ok',
      });
    }
  });

  it('sends nothing when the tenant is paused while the planner thinks, and audits the pause', async () => {
    try {
      const ended = await switchWhilePlanning(() =>
        admin('PUT', '/api/admin/pause', { paused: true, reason: 'quarter close' }),
      );
      expect(ended).toMatchObject({ status: 'stopped', end_reason: 'killed' });
      expect(ended.summary).toBe('the tenant is paused: quarter close');
      expect(await performed()).toEqual([]);
      const pause = await stack.api.request('GET', '/api/admin/pause', {
        token: stack.tokens.admin,
      });
      expect(pause.body).toMatchObject({
        paused: true,
        reason: 'quarter close',
        updated_by: 'ada',
      });
      const events = await stack.api.request('GET', '/api/audit?type=computer_use.pause', {
        token: stack.tokens.auditor,
      });
      expect(events.body.items.at(-1)).toMatchObject({
        actor: 'ada',
        details: { paused: true, reason: 'quarter close' },
      });
    } finally {
      await admin('PUT', '/api/admin/pause', { paused: false });
    }
  });

  it('sends nothing when computer use is turned off while the planner thinks', async () => {
    const ended = await switchWhilePlanning(() =>
      stack.api.request('PUT', '/api/admin/computer-use', {
        token: stack.tokens.admin,
        json: { enabled: false, agents: {} },
      }),
    );
    expect(ended).toMatchObject({ status: 'stopped', end_reason: 'killed' });
    expect(ended.summary).toBe('computer use is turned off for this tenant');
    expect(await performed()).toEqual([]);
  });

  it('sends nothing when the agent is removed from the config while the planner thinks', async () => {
    const ended = await switchWhilePlanning(() =>
      stack.api.request('PUT', '/api/admin/computer-use', {
        token: stack.tokens.admin,
        json: { enabled: true, agents: {} },
      }),
    );
    expect(ended).toMatchObject({ status: 'stopped', end_reason: 'killed' });
    expect(ended.summary).toBe("agent sap-orders is no longer in the tenant's computer-use config");
    expect(await performed()).toEqual([]);
  });

  it('stops a run killed before its next step when the tenant is paused between steps', async () => {
    const waits = await stack.planner({
      steps: Array.from({ length: 30 }, () => ({ action: { action: 'wait', seconds: 0.2 } })),
    });
    await stack.configure({ planner: waits });
    const run = await stack.start();
    await stack.waitFor(run.id, (r) => r.step_count >= 2);
    try {
      await admin('PUT', '/api/admin/pause', { paused: true, reason: 'audit' });
      const ended = await stack.waitFor(run.id, isEnded);
      expect(ended).toMatchObject({ status: 'stopped', end_reason: 'killed' });
      expect(ended.summary).toBe('the tenant is paused: audit');
      expect(ended.step_count).toBeLessThan(30);
    } finally {
      await admin('PUT', '/api/admin/pause', { paused: false });
    }
  });

  it('keeps queued runs queued while the tenant is paused, and starts them after', async () => {
    const waits = await stack.planner({
      steps: [
        { action: { action: 'wait', seconds: 0.5 } },
        { action: { action: 'done', summary: 'ok' } },
      ],
    });
    await stack.configure({ planner: waits });
    const first = await stack.start();
    const second = await stack.start(); // the same screen host: it waits for the first
    expect((await stack.run(second.id)).status).toBe('queued');
    try {
      await admin('PUT', '/api/admin/pause', { paused: true, reason: 'hold on' });
      const killed = await stack.waitFor(first.id, isEnded);
      expect(killed.end_reason).toBe('killed');
      // The host is free, but the paused tenant's queued run is not started.
      await new Promise((r) => setTimeout(r, 1500)); // three reconciler passes
      expect((await stack.run(second.id)).status).toBe('queued');
    } finally {
      await admin('PUT', '/api/admin/pause', { paused: false });
    }
    const done = await stack.waitFor(second.id, isEnded);
    expect(done).toMatchObject({ status: 'completed', end_reason: 'done' });
  });

  it('refuses a pause without a reason, and needs computer_use.admin', async () => {
    const bare = await admin('PUT', '/api/admin/pause', { paused: true });
    expect([bare.status, bare.body.message]).toEqual([400, expect.stringMatching(/reason/)]);
    const operator = await stack.api.request('PUT', '/api/admin/pause', {
      token: stack.tokens.operator,
      json: { paused: true, reason: 'x' },
    });
    expect(operator.status).toBe(403);
    const other = await stack.api.request('GET', '/api/admin/pause', { token: stack.tokens.other });
    expect(other.body.paused).toBe(false); // globex's own pause, not acme's
  });

  it("holds a write after all when the agent's writes need approval again while the planner thinks", async () => {
    const slowType = await stack.planner({
      steps: [
        { when: { text: '^GO$' }, patience: 60, action: { action: 'type', text: '/nVA03' } },
        { action: { action: 'done', summary: 'typed' } },
      ],
    });
    await stack.configure({ planner: slowType, require_write_approval: false, reason: 'fast' });
    const run = await stack.start();
    await stack.waitFor(run.id, (r) => r.step_count === 1 || isEnded(r));
    await new Promise((r) => setTimeout(r, 300)); // the planner is looking for GO
    await stack.configure({ planner: slowType }); // writes need a person again
    await stack.sim.poke('GO');
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r));
    expect(held.status).toBe('awaiting_approval');
    expect(held.pending_approval.action).toEqual({ action: 'type', text: '/nVA03' });
    expect(held.pending_approval.why).toMatch(/need approval again/);
    expect(await performed()).toEqual([]);
    await stack.api.request('POST', `/api/computer-use/runs/${run.id}/cancel`, {
      token: stack.tokens.operator,
    });
  });

  it('applies a new planner from the next step, from its start', async () => {
    const slow = await stack.planner({
      steps: [
        { action: { action: 'wait', seconds: 0.2 } },
        { when: { text: '^NEXT$' }, patience: 60, action: { action: 'wait', seconds: 0.1 } },
        { action: { action: 'fail', reason: 'the old planner went on' } },
      ],
    });
    const replacement = await stack.planner({
      steps: [{ action: { action: 'done', summary: 'the new planner answered' } }],
    });
    await stack.configure({ planner: slow });
    const run = await stack.start();
    await stack.waitFor(run.id, (r) => r.step_count >= 2);
    await stack.configure({ planner: replacement });
    await stack.sim.poke('NEXT');
    const ended = await stack.waitFor(run.id, isEnded);
    expect(ended).toMatchObject({
      status: 'completed',
      end_reason: 'done',
      summary: 'the new planner answered',
    });
  });

  it('stops a run at its next step when its planner is switched to one its starter may not use', async () => {
    const slow = await stack.planner({
      steps: [
        { action: { action: 'wait', seconds: 0.2 } },
        { when: { text: '^NEXT$' }, patience: 60, action: { action: 'wait', seconds: 0.1 } },
        { action: { action: 'done', summary: 'the old planner went on' } },
      ],
    });
    await stack.configure({ planner: slow });
    const run = await stack.start(); // by olga, who may not use the navigator
    await stack.waitFor(run.id, (r) => r.step_count >= 2);
    // The operator lets wes (only) use the navigator, and wes puts it in force under olga's run.
    await stack.api.app
      .get(PlannerAccess)
      .set(
        { kind: 'allow', tenant: 'acme', subject: 'wes', planner: NAVIGATOR_PLANNER_ID },
        'os:test',
      );
    const switched = await stack.configureAs(stack.tokens.weakener, {
      planner: NAVIGATOR_PLANNER_ID,
    });
    expect(switched.status).toBe(200);
    await stack.sim.poke('NEXT');
    const ended = await stack.waitFor(run.id, isEnded);
    expect(ended).toMatchObject({ status: 'stopped', end_reason: 'not_granted' });
    expect(ended.summary).toMatch(
      new RegExp(
        `^planner_unavailable: agent "sap-orders" cannot plan: ${NAVIGATOR_PLANNER_ID} is not public`,
      ),
    );
    expect(ended.steps.map((s: any) => s.outcome)).toEqual(['sent', 'sent', null]);
    expect(await performed()).toEqual([]);
  });
});

describe('cancel, expiry and resume racing each other', () => {
  let stack: Stack;
  let queue: Queue;
  let oneWrite: string;

  beforeAll(async () => {
    stack = await startStack();
    const c = stack.api.config;
    queue = new Queue(STEP_QUEUE, {
      connection: { url: c.REDIS_URL, maxRetriesPerRequest: null },
      prefix: c.QUEUE_PREFIX,
    });
    oneWrite = await stack.planner({
      steps: [
        { action: { action: 'click', element: COMMAND } },
        { step: 'the write', action: { action: 'type', text: '/nVA03' } },
        { action: { action: 'done', summary: 'typed' } },
      ],
    });
    await stack.configure({ planner: oneWrite });
  });

  afterAll(async () => {
    await queue?.close();
    await stack?.close();
  });

  const typed = async () =>
    (await stack.sim.events()).filter((e) => e.type === 'action' && e.action?.action === 'type');
  const events = async (runId: string) =>
    (
      await stack.api.request('GET', `/api/audit?run_id=${runId}`, { token: stack.tokens.auditor })
    ).body.items.map((e: { type: string }) => e.type);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

  async function approvedRun() {
    await stack.sim.reset();
    const run = await stack.start();
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r));
    expect(held.status).toBe('awaiting_approval');
    const approval = held.pending_approval;
    await stack.api.request('POST', `/api/approvals/${approval.id}/approve`, {
      token: stack.tokens.approver,
      json: {},
    });
    return { runId: run.id as string, approvalId: approval.id as string };
  }

  const resume = (runId: string) =>
    stack.api.request('POST', `/api/computer-use/runs/${runId}/resume`, {
      token: stack.tokens.operator,
    });

  it('an expiry and a resume never both win: the write is sent once or not at all, and the audit says which', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const { runId, approvalId } = await approvedRun();
      // The approval runs out in 150 ms, and its expiry job fires then; the resume comes around it.
      await stack.api.db.sql(
        `UPDATE approvals SET expires_at = clock_timestamp() + interval '150 milliseconds' WHERE id = $1`,
        [approvalId],
      );
      await queue.add(
        JOB.expire,
        { approvalId },
        { jobId: `expire.${approvalId}.race`, delay: 150 },
      );
      await sleep(100 + i * 15);
      const answer = await resume(runId);
      const ended = await stack.waitFor(runId, isEnded);
      const writes = await typed();
      if (answer.status === 200) {
        seen.add('resumed');
        expect(ended).toMatchObject({ status: 'completed', end_reason: 'done' });
        expect(writes).toHaveLength(1);
        expect(await events(runId)).toEqual([
          'computer_use.start',
          'computer_use.write.held',
          'approval.decided',
          'computer_use.write',
          // What the application said after it, once the screen settled.
          'computer_use.write.receipt',
          'computer_use.end',
        ]);
      } else {
        seen.add('expired');
        expect(answer.status).toBe(409);
        expect(ended).toMatchObject({ status: 'stopped', end_reason: 'approval_expired' });
        expect(writes).toEqual([]);
        expect(await events(runId)).toEqual([
          'computer_use.start',
          'computer_use.write.held',
          'approval.decided',
          'computer_use.end',
        ]);
      }
    }
    expect(seen.size).toBeGreaterThan(0);
  });

  it('a cancel and a resume never both win: a cancelled run sends nothing, a sent write is audited once', async () => {
    for (let i = 0; i < 8; i++) {
      const { runId } = await approvedRun();
      const [resumed, cancelled] = await Promise.all([
        resume(runId),
        sleep(i * 4).then(() =>
          stack.api.request('POST', `/api/computer-use/runs/${runId}/cancel`, {
            token: stack.tokens.operator,
          }),
        ),
      ]);
      const ended = await stack.waitFor(runId, isEnded);
      const writes = await typed();
      const audited = (await events(runId)).filter((t: string) => t === 'computer_use.write');
      expect(writes.length).toBe(audited.length);
      expect(writes.length).toBeLessThanOrEqual(1);
      if (resumed.status === 409) expect(writes).toEqual([]);
      if (writes.length === 0) expect(ended.steps[1].outcome).not.toBe('sent_after_approval');
      else expect(ended.steps[1].outcome).toBe('sent_after_approval');
      if (ended.end_reason === 'cancelled') expect(cancelled.status).toBe(200);
    }
  });
});
