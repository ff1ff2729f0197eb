import { createHash } from 'node:crypto';
import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { isEnded, startStack, Stack } from '../support/stack';

/**
 * The whole story on a real sim screen host over HTTPS, with the real API, worker, PostgreSQL and
 * Redis: reads flow, writes are held, the starter cannot approve them, another person approves,
 * resume sends each exactly once, and the record and audit trail show all of it.
 */
describe('a governed run, end to end', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
    await stack.configure({ planner: await stack.planner(VA02_EXAMPLE_SCRIPT) });
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('changes order 4711 once, with every write held and approved by someone else', async () => {
    const { api, tokens, sim } = stack;
    const started = await stack.start(
      'Change the delivery date of order 4711 to 30.04.2026',
      'sap-orders',
      tokens.both,
    );
    expect(started).toMatchObject({
      status: expect.stringMatching(/queued|running/),
      agent: 'sap-orders',
      created_by: 'olga',
    });

    // The first held write: the approver sees it, the starter cannot approve it (four-eyes).
    const held = await stack.waitFor(started.id, (r) => r.status === 'awaiting_approval');
    const approval = held.pending_approval;
    expect(approval).toMatchObject({
      status: 'pending',
      kind: 'computer_use.write',
      run_id: started.id,
      requested_by: 'olga',
    });
    const inbox = await api.request('GET', '/api/approvals', { token: tokens.approver });
    expect(inbox.body.items.map((a: { id: string }) => a.id)).toEqual([approval.id]);
    const selfApproval = await api.request('POST', `/api/approvals/${approval.id}/approve`, {
      token: tokens.both,
      json: {},
    });
    expect(selfApproval.status).toBe(403);
    expect(selfApproval.body.message).toMatch(/four-eyes/);
    const early = await api.request('POST', `/api/computer-use/runs/${started.id}/resume`, {
      token: tokens.operator,
    });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/waiting for an approver/);

    // Approve and resume every held write until the run ends.
    let run = held;
    let writes = 0;
    while (!isEnded(run)) {
      await stack.approveAndResume(started.id);
      writes++;
      expect(writes).toBeLessThan(15);
      run = await stack.waitFor(started.id, (r) => r.status !== 'running');
    }
    expect(run).toMatchObject({
      status: 'completed',
      end_reason: 'done',
      summary: 'order 4711: Req. Deliv. Date is now 30.04.2026',
    });

    // The sim saw exactly one save, of order 4711 with the new date.
    const saves = (await sim.events()).filter((e) => e.type === 'saved');
    expect(saves).toHaveLength(1);
    expect(saves[0]).toMatchObject({ order: '4711', fields: { reqDelivDate: '30.04.2026' } });

    // Every step is recorded: reads sent, writes sent after approval, the end.
    const steps = run.steps as any[];
    const outcomes = steps.map((s) => `${s.classification}:${s.outcome}`);
    expect(outcomes.filter((o) => o === 'write:sent_after_approval')).toHaveLength(writes);
    expect(outcomes).toContain('read:sent');
    expect(outcomes[outcomes.length - 1]).toBe('read:ended');
    expect(steps.every((s) => /^[0-9a-f]{64}$/.test(s.screen_sha256))).toBe(true);
    for (const s of steps) expect(typeof s.why).toBe('string');

    // Each step's screen is retrievable, and its SHA-256 is the one recorded.
    for (const s of steps.slice(0, 4)) {
      const response = await fetch(
        `${api.url}/api/computer-use/runs/${started.id}/steps/${s.n}/screen`,
        {
          headers: { authorization: `Bearer ${tokens.auditor}` },
        },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(s.screen_sha256);
      expect(response.headers.get('etag')).toBe(`"${s.screen_sha256}"`);
    }

    // The audit trail, in order, and an intact chain.
    const audit = await api.request('GET', `/api/audit?run_id=${started.id}&limit=200`, {
      token: tokens.auditor,
    });
    const types = audit.body.items.map((e: { type: string }) => e.type);
    expect(types[0]).toBe('computer_use.start');
    expect(types[types.length - 1]).toBe('computer_use.end');
    expect(types.filter((t: string) => t === 'computer_use.write.held')).toHaveLength(writes);
    expect(types.filter((t: string) => t === 'computer_use.write')).toHaveLength(writes);
    expect(types.filter((t: string) => t === 'approval.decided')).toHaveLength(writes);
    // held → decided → sent, for every write, in that order
    const firstHeld = types.indexOf('computer_use.write.held');
    expect(types.slice(firstHeld, firstHeld + 3)).toEqual([
      'computer_use.write.held',
      'approval.decided',
      'computer_use.write',
    ]);
    // Each decision names the screen the person decided on: the held step's screen.
    for (const decided of audit.body.items.filter(
      (e: { type: string }) => e.type === 'approval.decided',
    )) {
      const held = steps.find((s: { n: number }) => s.n === decided.step);
      expect(decided.details.screen_sha256).toBe(held.screen_sha256);
    }
    const write = audit.body.items.find((e: { type: string }) => e.type === 'computer_use.write');
    expect(write.details).toMatchObject({
      approved_by: 'bob',
      resumed_by: 'olga',
      idempotency_key: expect.any(String),
    });
    const verify = await api.request('GET', '/api/audit/verify', { token: tokens.auditor });
    expect(verify.body).toMatchObject({ ok: true });
  });
});
