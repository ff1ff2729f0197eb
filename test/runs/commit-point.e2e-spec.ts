import { createHash } from 'node:crypto';
import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { runApprovingEveryWrite, saves } from '../support/approving';
import { isEnded, type SimHost, type Stack } from '../support/stack';
import { startVa02Bed, va02Script, type Va02Bed } from '../support/va02-bed';

/**
 * Commit-point approval (docs/security.md, issue 14) end to end: real API, worker, PostgreSQL, Redis and
 * the HTTPS sim screen host with its outline. Under `approve_at: "commit"` with the two screen rules
 * of issue 14, the VA02 change asks a person once, at Save, and that approval lists what the save
 * stores. Typing that cannot be staged is held as always; a rejected commit stores nothing; a held
 * commit whose screen changed before the resume is not sent.
 */

jest.setTimeout(180_000);

const RULES = [
  { command_field: { transactions: ['VA02', 'VA03'] } },
  { title: '^Change Sales Order: Initial Screen$', keys: { Enter: 'read' } },
];
const COMMIT = {
  approve_at: 'commit',
  screen_rules: RULES,
  reason: 'VA02 typing is stored only by Save; the approver decides there',
};

const el = (role: string, name: string) => ({
  action: { action: 'click', element: { role, name } },
});
const type = (text: string) => ({ action: { action: 'type', text } });
const key = (k: string) => ({ action: { action: 'key', key: k } });
const done = (summary: string) => ({ action: { action: 'done', summary } });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('commit-point approval, end to end', () => {
  let bed: Va02Bed;
  let stack: Stack;
  let blind: SimHost;
  let audit: Va02Bed['audit'];

  beforeAll(async () => {
    bed = await startVa02Bed();
    ({ stack, blind, audit } = bed);
  });

  afterAll(async () => {
    await bed?.close();
  });

  beforeEach(async () => {
    await bed.reset();
  });

  it('is refused without governance.weaken, and nothing changes', async () => {
    const r = await stack.api.request('PUT', '/api/admin/computer-use', {
      token: stack.tokens.admin,
      json: {
        enabled: true,
        agents: {
          'sap-orders': {
            screen_url: stack.sim.url,
            screen_token_env: stack.sim.tokenEnv,
            approve_at: 'commit',
            reason: 'fewer approvals',
          },
        },
      },
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toContain('setting approve_at to "commit" (agent sap-orders)');
  });

  it('asks once, at Save, with the change list of everything typed since the run began', async () => {
    await stack.configure({ planner: await stack.planner(VA02_EXAMPLE_SCRIPT), ...COMMIT });
    const { run, held } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(held.map((h) => h.n)).toEqual([9]);
    expect(held[0].why).toBe(
      'click on “Save” (from the screen outline); it commits 1 staged change',
    );
    const overview = run.steps[8];
    expect(held[0].changes).toEqual([
      {
        field: 'Order',
        before: '',
        after: '4711',
        // The order field is not on the overview the Save is held on: the sim reports field
        // state, so it was typed on an earlier screen (the Enter took it), not "not read back".
        read_back: null,
        read_back_check: 'earlier',
        step: 5,
        rect: expect.any(Object),
        // And the run left that screen by the Enter screen rule 2 makes a read: navigation, not
        // a change the Save stores.
        kind: 'navigation',
      },
      {
        field: 'Req. Deliv. Date',
        before: expect.stringMatching(/^\d\d\.\d\d\.\d{4}$/),
        after: '30.04.2026',
        read_back: '30.04.2026',
        read_back_check: 'same',
        step: 8,
        rect: expect.objectContaining({ width: expect.any(Number) }),
      },
    ]);
    expect(held[0].changes![1].before).not.toBe('30.04.2026');
    expect(overview).toMatchObject({ n: 9, outcome: 'sent_after_approval' });
    for (const n of [5, 8]) {
      expect(run.steps[n - 1]).toMatchObject({
        classification: 'write',
        outcome: 'staged',
        why: 'typing into a field is a write; staged until the next commit, which is held',
      });
    }

    // Every write that reached the screen is in the audit trail; the held commit records the
    // fields and the SHA-256 of each value, never the values.
    const writes = await audit(run.id, 'computer_use.write');
    expect(writes.map((w) => [w.step, w.details.staged ?? false])).toEqual([
      [5, true],
      [8, true],
      [9, false],
    ]);
    expect(writes[1].details).toMatchObject({ field: 'Req. Deliv. Date', staged: true });
    const [heldEvent] = await audit(run.id, 'computer_use.write.held');
    const date = held[0].changes![1];
    // The trail says what the approver was shown: the order number was navigation.
    expect(heldEvent.details.changes[0]).toMatchObject({ field: 'Order', kind: 'navigation' });
    expect(heldEvent.details.changes[1]).toEqual({
      field: 'Req. Deliv. Date',
      step: 8,
      before_sha256: sha256(date.before),
      after_sha256: sha256('30.04.2026'),
      read_back_sha256: sha256('30.04.2026'),
      read_back_check: 'same',
    });
    expect(JSON.stringify(heldEvent.details)).not.toContain('30.04.2026');

    const saved = await saves(stack.sim);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ order: '4711', fields: { reqDelivDate: '30.04.2026' } });
  });

  it('a rejected commit stores nothing: the run stops and the sim saw no save', async () => {
    await stack.configure({ planner: await stack.planner(VA02_EXAMPLE_SCRIPT), ...COMMIT });
    const started = await stack.start('change order 4711');
    const run = await stack.waitFor(
      started.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
    );
    expect(run.pending_approval).toMatchObject({ step: 9, changes: expect.any(Array) });
    const rejected = await stack.api.request(
      'POST',
      `/api/approvals/${run.pending_approval.id}/reject`,
      { token: stack.tokens.approver, json: { comment: 'wrong date' } },
    );
    expect(rejected.status).toBe(200);
    const ended = await stack.waitFor(started.id, isEnded);
    expect(ended).toMatchObject({ status: 'stopped', end_reason: 'rejected' });
    // The typing reached the screen; the save never happened.
    const typed = (await stack.sim.events()).filter(
      (e) => e.type === 'action' && e.action.action === 'type',
    );
    expect(typed.map((e) => e.action.text)).toEqual(['/nVA02', '4711', '30.04.2026']);
    expect(await saves(stack.sim)).toEqual([]);
  });

  it('holds a click on the toolbar Enter (SAP’s green check) like the Enter key, with the change list', async () => {
    await stack.configure({
      planner: await stack.planner(
        va02Script('30.04.2026', [el('button', 'Enter'), done('entered')]),
      ),
      ...COMMIT,
    });
    const started = await stack.start('change order 4711');
    const run = await stack.waitFor(
      started.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
    );
    expect(run.pending_approval).toMatchObject({
      step: 9,
      why: 'click on “Enter” (from the screen outline, which names the commit key Enter: a control does what its key does); it commits 1 staged change',
      changes: [
        expect.objectContaining({ field: 'Order', after: '4711' }),
        expect.objectContaining({ field: 'Req. Deliv. Date', after: '30.04.2026' }),
      ],
    });
    const rejected = await stack.api.request(
      'POST',
      `/api/approvals/${run.pending_approval.id}/reject`,
      { token: stack.tokens.approver, json: { comment: 'not this date' } },
    );
    expect(rejected.status).toBe(200);
    expect(await stack.waitFor(started.id, isEnded)).toMatchObject({ end_reason: 'rejected' });
    // The click never reached the screen: no button was pressed, nothing was saved.
    const clicks = (await stack.sim.events()).filter(
      (e) => e.type === 'action' && e.action.action === 'click',
    );
    expect(clicks).toHaveLength(3);
    expect(await saves(stack.sim)).toEqual([]);
  });

  it('lists a field the application marks modified that nothing typed: changed without a typed edit', async () => {
    await stack.configure({
      planner: await stack.planner(
        va02Script('30.04.2026', [
          { step: 'wait', action: { action: 'wait', seconds: 1 } },
          el('button', 'Save'),
          done('saved'),
        ]),
      ),
      ...COMMIT,
    });
    const started = await stack.start('change order 4711');
    // Someone else changes the Customer Reference while the run types the date.
    await stack.waitFor(started.id, (r) =>
      r.steps.some((s: any) => s.n === 8 && s.outcome === 'staged'),
    );
    await stack.sim.prefill('customerReference', 'PO-999');
    const run = await stack.waitFor(
      started.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
    );
    // The why counts what the list says: one staged change, and one field changed without one.
    expect(run.pending_approval.why).toBe(
      'click on “Save” (from the screen outline); it commits 1 staged change; the application marks 1 field changed without a typed edit',
    );
    expect(run.pending_approval.changes).toEqual([
      expect.objectContaining({ field: 'Order', read_back_check: 'earlier' }),
      expect.objectContaining({
        field: 'Req. Deliv. Date',
        read_back: '30.04.2026',
        read_back_check: 'same',
      }),
      expect.objectContaining({
        field: 'Customer Reference',
        before: null,
        after: null,
        read_back: 'PO-999',
        read_back_check: 'unexplained',
      }),
    ]);
    const rejected = await stack.api.request(
      'POST',
      `/api/approvals/${run.pending_approval.id}/reject`,
      { token: stack.tokens.approver, json: { comment: 'who changed the reference?' } },
    );
    expect(rejected.status).toBe(200);
    expect(await stack.waitFor(started.id, isEnded)).toMatchObject({ end_reason: 'rejected' });
    expect(await saves(stack.sim)).toEqual([]);
  });

  it('holds typed text holding a newline: it would commit', async () => {
    await stack.configure({
      planner: await stack.planner(va02Script('30.04.2026\n', [done('typed')])),
      ...COMMIT,
    });
    const started = await stack.start('change order 4711');
    const run = await stack.waitFor(
      started.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
    );
    expect(run.status).toBe('awaiting_approval');
    expect(run.pending_approval).toMatchObject({
      step: 8,
      action: { action: 'type', text: '30.04.2026\n' },
      // The order number only opened the order (navigation): no staged change to commit.
      why: 'typing into a field is a write; not staged: the text holds a newline, tab or other control character: a person decides',
    });
    expect(run.pending_approval.changes).toEqual([expect.objectContaining({ field: 'Order' })]);
    await stack.api.request('POST', `/api/approvals/${run.pending_approval.id}/reject`, {
      token: stack.tokens.approver,
      json: {},
    });
    expect(await saves(stack.sim)).toEqual([]);
  });

  it('still refuses typing into the password field', async () => {
    await stack.configure({
      planner: await stack.planner({
        patience: 10,
        steps: [
          el('textbox', 'Command field'),
          type('/nPWD'),
          key('Enter'),
          {
            when: { element: { role: 'textbox', name: 'Current Password' } },
            ...el('textbox', 'Current Password'),
          },
          type('geheim123'),
          done('gave up'),
        ],
      }),
      ...COMMIT,
      screen_rules: [{ command_field: { transactions: ['PWD'] } }],
    });
    const { run, held } = await runApprovingEveryWrite(stack, 'sap-orders');
    // The script stops at the typing Warden refused.
    expect(run).toMatchObject({ status: 'failed', end_reason: 'fail', invalid_actions: 1 });
    expect(held).toEqual([]);
    // Refused, and what was meant for the password field is not stored anywhere.
    expect(run.steps[4]).toMatchObject({
      classification: 'invalid',
      outcome: 'refused',
      action: { action: 'type', text: '•••••••••' },
    });
    const refused = await audit(run.id, 'computer_use.action.refused');
    expect(refused).toHaveLength(1);
    expect(JSON.stringify(refused)).not.toContain('geheim123');
    const stored = await stack.api.db.sql<{ n: number }>(
      `SELECT n FROM steps WHERE run_id = $1 AND action::text LIKE '%geheim123%'`,
      [run.id],
    );
    expect(stored).toEqual([]);
    const typed = (await stack.sim.events()).filter(
      (e) => e.type === 'action' && e.action.action === 'type',
    );
    expect(typed.map((e) => e.action.text)).toEqual(['/nPWD']);
  });

  it('holds the typing after all when the agent stops staging while the planner thinks', async () => {
    const slow = { when: { text: '^GO$' }, patience: 60, ...type('30.04.2026') };
    const script = va02Script('unused');
    script.steps[7] = slow;
    await stack.configure({ planner: await stack.planner(script), ...COMMIT });
    const started = await stack.start('change order 4711');
    await stack.waitFor(started.id, (r) => r.step_count === 8 || isEnded(r));
    await new Promise((r) => setTimeout(r, 300)); // the planner is looking for GO
    const { approve_at: _, ...everyWrite } = COMMIT;
    await stack.configure({ planner: await stack.planner(script), ...everyWrite });
    await stack.sim.poke('GO');
    const held = await stack.waitFor(
      started.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
    );
    expect(held.pending_approval).toMatchObject({
      step: 8,
      action: { action: 'type', text: '30.04.2026' },
      why: expect.stringMatching(/need approval again/),
    });
    const typed = (await stack.sim.events()).filter(
      (e) => e.type === 'action' && e.action.action === 'type',
    );
    expect(typed.map((e) => e.action.text)).toEqual(['/nVA02', '4711']);
    await stack.api.request('POST', `/api/computer-use/runs/${started.id}/cancel`, {
      token: stack.tokens.operator,
    });
  });

  it('records the typing as an unapproved write, not staged, when the agent stops holding writes while the planner thinks', async () => {
    const slow = { when: { text: '^GO$' }, patience: 60, ...type('30.04.2026') };
    const script = va02Script('unused');
    script.steps[7] = slow;
    script.steps.push(done('typed'));
    const planner = await stack.planner(script);
    await stack.configure({ planner, ...COMMIT });
    const started = await stack.start('change order 4711');
    await stack.waitFor(started.id, (r) => r.step_count === 8 || isEnded(r));
    await new Promise((r) => setTimeout(r, 300)); // the planner is looking for GO
    const { approve_at: _, ...everyWrite } = COMMIT;
    await stack.configure({
      planner,
      ...everyWrite,
      require_write_approval: false,
    });
    await stack.sim.poke('GO');
    const ended = await stack.waitFor(started.id, isEnded);
    const step = ended.steps.find((s: { n: number }) => s.n === 8);
    // It went: the config in force at its send needs no approval; and it says so, not "staged".
    expect(step).toMatchObject({
      action: { action: 'type', text: '30.04.2026' },
      outcome: 'sent',
      why: expect.stringMatching(/sent without approval, not staged: while it was planned/),
    });
    expect(step.staged).toBeUndefined();
    const [write] = (await audit(started.id, 'computer_use.write')).filter((e) => e.step === 8);
    expect(write.details).toMatchObject({
      approval_id: null,
      without_approval: 'require_write_approval is off for this agent',
    });
    expect(write.details.staged).toBeUndefined();
  });

  it('a held commit whose screen changed before the resume ends stale_screen, unsaved', async () => {
    await stack.configure({ planner: await stack.planner(VA02_EXAMPLE_SCRIPT), ...COMMIT });
    const started = await stack.start('change order 4711');
    const run = await stack.waitFor(
      started.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
    );
    expect(run.pending_approval.step).toBe(9);
    // The screen changes while the person decides: a message in the status bar.
    expect(
      (await stack.sim.call('POST', '/sim/poke', { message: 'Order 4711 was changed by MEIER' }))
        .status,
    ).toBe(200);
    const ended = await stack.approveAndResume(started.id);
    const final = isEnded(ended) ? ended : await stack.waitFor(started.id, isEnded);
    expect(final).toMatchObject({ status: 'stopped', end_reason: 'stale_screen' });
    expect(await saves(stack.sim)).toEqual([]);
  });

  it('without an outline nothing is staged: every edit is held, its why saying nothing places the field', async () => {
    const at = (x: number, y: number) => ({ action: { action: 'click', x, y } });
    const script = {
      steps: [
        at(140, 66), // the command field
        type('/nVA02'),
        key('Enter'),
        at(255, 183), // Order
        type('4711'),
        key('Enter'),
        at(255, 305), // Req. Deliv. Date
        type('30.04.2026'),
        at(266, 66), // the Save icon
        done('order 4711: Req. Deliv. Date is now 30.04.2026'),
      ],
    };
    await stack.configure(
      { planner: await stack.planner(VA02_EXAMPLE_SCRIPT), ...COMMIT },
      {
        'sap-blind': {
          screen_url: blind.url,
          screen_token_env: blind.tokenEnv,
          screen_tls: { fingerprint_sha256: blind.fingerprint },
          system: 'SAP GUI (sim, no outline)',
          max_steps: 40,
          planner: await stack.planner(script),
          ...COMMIT,
        },
      },
    );
    const { run, held } = await runApprovingEveryWrite(stack, 'sap-blind');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    // The typing is held like any write: nothing on a host without an outline places the field
    // (an OCR label beside the last click could be anything), so a person decides each edit.
    expect(held.map((h) => h.n)).toEqual(expect.arrayContaining([5, 8]));
    expect(run.steps.filter((s: any) => s.outcome === 'staged')).toEqual([]);
    for (const n of [5, 8]) {
      expect(held.find((h) => h.n === n)?.why).toContain(
        'the screen host serves no outline, so nothing places the field: a person decides',
      );
    }
    // With nothing staged, the Save's approval lists no change: each edit had its own.
    expect(held.find((h) => h.n === 9)).toMatchObject({ changes: null });
    const saved = (await blind.events()).filter((e) => e.type === 'saved');
    expect(saved).toHaveLength(1);
  });
});
