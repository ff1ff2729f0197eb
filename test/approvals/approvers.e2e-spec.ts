import { Queue } from 'bullmq';
import { ApprovalTimers } from '../../src/computer-use/approvals/approval-timers.service';
import { JOB, STEP_QUEUE } from '../../src/queue/step-queue';
import { isEnded, startStack, Stack } from '../support/stack';
import { until } from '../support/until';
import { heldWrite, ONE_WRITE } from '../support/approving';

/**
 * Approver groups, reminders and escalation (docs/security.md): only the agent's approvers decide its
 * writes and see them in their inbox; a pending write is reminded, then handed to escalate_to as
 * well, each once, even when its job runs twice or Redis lost it; four-eyes still holds. Real API,
 * worker, PostgreSQL, Redis and an HTTPS sim host; tokens of different subjects.
 */

describe('approver groups, reminders and escalation', () => {
  let stack: Stack;
  let planner: string;
  let queue: Queue;
  let carol: string;
  let erin: string;
  /** Another token of olga, the operator who starts the runs. */
  let olgaApprover: string;

  beforeAll(async () => {
    stack = await startStack();
    planner = await stack.planner(ONE_WRITE);
    carol = (await stack.api.token('acme', 'carol', ['agents.approve'])).token;
    erin = (await stack.api.token('acme', 'erin', ['agents.approve'])).token;
    olgaApprover = (await stack.api.token('acme', 'olga', ['agents.approve'])).token;
    queue = new Queue(STEP_QUEUE, {
      connection: { url: stack.api.config.REDIS_URL },
      prefix: stack.api.config.QUEUE_PREFIX,
    });
  });

  afterAll(async () => {
    await queue?.close();
    await stack?.close();
  });

  beforeEach(async () => {
    await stack.sim.reset();
  });

  /** The agent with `fields` (a reason, as narrowing and widening approvers may be weakenings). */
  const configure = (fields: Record<string, unknown>) =>
    stack.configure({ planner, reason: 'approver tests', ...fields });

  const held = () => heldWrite(stack);

  const decide = (approvalId: string, how: 'approve' | 'reject', token: string) =>
    stack.api.request('POST', `/api/approvals/${approvalId}/${how}`, { token, json: {} });
  const inbox = async (token: string): Promise<string[]> => {
    const r = await stack.api.request('GET', '/api/approvals', { token });
    expect(r.status).toBe(200);
    return r.body.items.map((a: { id: string }) => a.id);
  };
  const view = async (approvalId: string) =>
    (await stack.api.request('GET', `/api/approvals/${approvalId}`, { token: erin })).body;
  const audited = async (runId: string, type: string) =>
    (
      await stack.api.request('GET', `/api/audit?run_id=${runId}&type=${type}&limit=100`, {
        token: stack.tokens.auditor,
      })
    ).body.items;
  const typed = async () =>
    (await stack.sim.events()).filter((e) => e.type === 'action' && e.action?.action === 'type');

  it('lets only the named approvers decide, and shows it only in their inbox', async () => {
    await configure({ approvers: ['subject:carol'] });
    const { runId, approvalId } = await held();

    for (const how of ['approve', 'reject'] as const) {
      const refused = await decide(approvalId, how, stack.tokens.approver);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(
        'only subject:carol may decide writes of agent sap-orders, and bob is not one of them',
      );
    }
    expect(await inbox(stack.tokens.approver)).not.toContain(approvalId);
    expect(await inbox(carol)).toContain(approvalId);
    // Anyone with agents.approve may still look at it, and sees who may decide.
    expect(await view(approvalId)).toMatchObject({
      status: 'pending',
      may_decide_now: ['subject:carol'],
      escalates_at: null,
      escalated_at: null,
      reminded_at: null,
    });

    expect((await decide(approvalId, 'approve', carol)).status).toBe(200);
    const resumed = await stack.api.request('POST', `/api/computer-use/runs/${runId}/resume`, {
      token: stack.tokens.operator,
    });
    expect(resumed.status).toBe(200);
    expect(await stack.waitFor(runId, isEnded)).toMatchObject({ status: 'completed' });
    expect(await typed()).toHaveLength(1);
  });

  it('holds a write with the approvers in force when it is held, not when its step began', async () => {
    // The planner waits for GO on the screen before its write; meanwhile bob is no longer listed.
    const waits = await stack.planner({
      steps: [
        { action: { action: 'click', element: { role: 'textbox', name: 'Command field' } } },
        { when: { text: '^GO$' }, patience: 60, action: { action: 'type', text: '/nVA03' } },
        { action: { action: 'done', summary: 'typed' } },
      ],
    });
    await configure({ planner: waits, approvers: ['subject:bob', 'subject:carol'] });
    const run = await stack.start();
    await stack.waitFor(run.id, (r) => r.step_count === 2 || isEnded(r));
    await new Promise((r) => setTimeout(r, 300)); // the planner is looking for GO
    await configure({ planner: waits, approvers: ['subject:carol'] });
    await stack.sim.poke('GO');
    const waiting = await stack.waitFor(
      run.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
    );
    expect(waiting.pending_approval).toMatchObject({ step: 2, may_decide_now: ['subject:carol'] });
    const approvalId = waiting.pending_approval.id as string;
    expect((await decide(approvalId, 'approve', stack.tokens.approver)).status).toBe(403);
    expect((await decide(approvalId, 'reject', carol)).status).toBe(200);
    expect(await stack.waitFor(run.id, isEnded)).toMatchObject({ end_reason: 'rejected' });
  });

  it('keeps every approver deciding when the agent names none', async () => {
    await configure({ approvers: [] });
    const { runId, approvalId } = await held();
    expect(await inbox(stack.tokens.approver)).toContain(approvalId);
    expect(await view(approvalId)).toMatchObject({ may_decide_now: null });
    expect((await decide(approvalId, 'reject', stack.tokens.approver)).status).toBe(200);
    expect(await stack.waitFor(runId, isEnded)).toMatchObject({ end_reason: 'rejected' });
  });

  it('keeps four-eyes: the starter cannot approve although listed, with any of its tokens', async () => {
    await configure({ approvers: ['subject:olga', 'subject:carol'] });
    const { runId, approvalId } = await held();
    expect(await inbox(olgaApprover)).toContain(approvalId);
    for (const token of [stack.tokens.both, olgaApprover]) {
      const refused = await decide(approvalId, 'approve', token);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toMatch(/^four-eyes: olga started this run/);
    }
    expect((await decide(approvalId, 'reject', carol)).status).toBe(200);
    expect(await stack.waitFor(runId, isEnded)).toMatchObject({ end_reason: 'rejected' });
  });

  it('reminds, then hands the write to escalate_to, each once even when its job runs twice', async () => {
    await configure({
      approvers: ['subject:carol'],
      remind_after_seconds: 1,
      escalate_after_seconds: 3,
      escalate_to: ['subject:erin'],
      approval_timeout_seconds: 60,
    });
    const { runId, approvalId } = await held();

    // Before the escalation erin may not decide, and is told when she may.
    const early = await decide(approvalId, 'approve', erin);
    expect(early.status).toBe(403);
    expect(early.body.message).toMatch(
      /^only subject:carol may decide writes of agent sap-orders, and erin is not one of them; it is handed to subject:erin at \d{4}-/,
    );
    expect(await inbox(erin)).not.toContain(approvalId);
    expect(await view(approvalId)).toMatchObject({ escalates_at: expect.any(String) });

    const reminded = await until('the reminder', async () => (await view(approvalId)).reminded_at);
    expect(typeof reminded).toBe('string');
    const escalated = await until('the escalation', async () => {
      const v = await view(approvalId);
      return v.escalated_at ? v : null;
    });
    expect(escalated.may_decide_now).toEqual(['subject:carol', 'subject:erin']);
    expect(Date.parse(escalated.escalated_at)).toBeGreaterThanOrEqual(
      Date.parse(escalated.escalates_at),
    );

    // The jobs again, from the queue under new ids and straight from the worker: nothing more.
    await queue.add(JOB.remind, { approvalId }, { jobId: `remind.${approvalId}.again` });
    await queue.add(JOB.escalate, { approvalId }, { jobId: `escalate.${approvalId}.again` });
    const timers = stack.worker.get(ApprovalTimers);
    await Promise.all([timers.escalate(approvalId), timers.escalate(approvalId)]);
    await timers.remind(approvalId);
    await new Promise((r) => setTimeout(r, 500));
    const escalations = await audited(runId, 'approval.escalated');
    expect(escalations).toHaveLength(1);
    expect(escalations[0]).toMatchObject({
      actor: 'warden',
      details: {
        approval_id: approvalId,
        agent: 'sap-orders',
        to: ['subject:erin'],
        after_seconds: 3,
      },
    });
    const reminders = await audited(runId, 'approval.reminded');
    expect(reminders).toHaveLength(1);
    expect(reminders[0].details).toMatchObject({ approval_id: approvalId, after_seconds: 1 });
    expect(await view(approvalId)).toMatchObject({
      may_decide_now: ['subject:carol', 'subject:erin'],
    });

    // Now erin may decide, and sees it; bob still not.
    expect(await inbox(erin)).toContain(approvalId);
    expect((await decide(approvalId, 'approve', stack.tokens.approver)).status).toBe(403);
    expect((await decide(approvalId, 'approve', erin)).status).toBe(200);
    const resumed = await stack.api.request('POST', `/api/computer-use/runs/${runId}/resume`, {
      token: stack.tokens.operator,
    });
    expect(resumed.status).toBe(200);
    expect(await stack.waitFor(runId, isEnded)).toMatchObject({ status: 'completed' });
  });

  it('re-arms a lost reminder and escalation from PostgreSQL; expiry stays approval_expired', async () => {
    await configure({
      approvers: ['subject:carol'],
      remind_after_seconds: 2,
      escalate_after_seconds: 3,
      escalate_to: ['subject:erin'],
      approval_timeout_seconds: 6,
    });
    const { runId, approvalId } = await held();
    // Redis lost the delayed jobs: only the reconciler can bring them back.
    expect(await queue.getJob(`remind.${approvalId}`)).toBeDefined();
    await queue.remove(`remind.${approvalId}`);
    await queue.remove(`escalate.${approvalId}`);
    expect(await queue.getJob(`escalate.${approvalId}`)).toBeUndefined();

    await until('the escalation', async () => (await view(approvalId)).escalated_at);
    expect(await view(approvalId)).toMatchObject({ reminded_at: expect.any(String) });
    expect(await audited(runId, 'approval.escalated')).toHaveLength(1);
    expect(await audited(runId, 'approval.reminded')).toHaveLength(1);

    // Nobody decided: the write expires as before.
    const ended = await stack.waitFor(runId, isEnded, 15_000);
    expect(ended).toMatchObject({ status: 'stopped', end_reason: 'approval_expired' });
    expect(await view(approvalId)).toMatchObject({ status: 'expired' });
    expect(await typed()).toEqual([]);
  });

  it('neither reminds nor escalates a write decided in time', async () => {
    await configure({
      approvers: ['subject:carol'],
      remind_after_seconds: 1,
      escalate_after_seconds: 2,
      escalate_to: ['subject:erin'],
    });
    const { runId, approvalId } = await held();
    expect((await decide(approvalId, 'reject', carol)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await view(approvalId)).toMatchObject({
      status: 'rejected',
      reminded_at: null,
      escalated_at: null,
    });
    expect(await audited(runId, 'approval.')).toEqual([
      expect.objectContaining({ type: 'approval.decided' }),
    ]);
  });
});
