import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { runApprovingEveryWrite, saves } from '../support/approving';
import { type SimHost, type Stack } from '../support/stack';
import { startVa02Bed, va02Script, type Va02Bed } from '../support/va02-bed';

/**
 * The application's own word on a write (its receipt), end to end: real API, worker, PostgreSQL,
 * Redis and the HTTPS sim screen host, whose status bar says what SAP's says (type and text). Every
 * write sent gets a receipt on its step and a `computer_use.write.receipt` event; an E message ends
 * the step `refused_by_application` and the run goes on, its planner told why; a message left from
 * an earlier action is not taken for a write's answer; a host without an outline says so.
 */

jest.setTimeout(180_000);

const type = (text: string) => ({ action: { action: 'type', text } });
const el = (role: string, name: string) => ({
  action: { action: 'click', element: { role, name } },
});

/** VA02 with `date` typed into Req. Deliv. Date, then Save, then `after`. */
const va02 = (date: string, after: unknown[]) => va02Script(date, [el('button', 'Save'), ...after]);

describe('write receipts, end to end', () => {
  let bed: Va02Bed;
  let stack: Stack;
  let blind: SimHost;
  let events: Va02Bed['audit'];

  beforeAll(async () => {
    bed = await startVa02Bed();
    ({ stack, blind, audit: events } = bed);
  });

  afterAll(async () => {
    await bed?.close();
  });

  beforeEach(async () => {
    await bed.reset();
  });

  it('keeps the S message of a Save on its step and in its event, and one receipt per write', async () => {
    await stack.configure({ planner: await stack.planner(VA02_EXAMPLE_SCRIPT) });
    const { run } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    const save = run.steps[8];
    expect(save).toMatchObject({ n: 9, outcome: 'sent_after_approval' });
    expect(save.receipt).toEqual({
      before: null,
      message: { source: 'status', type: 'S', text: 'Sales order 4711 has been saved' },
      fresh: true,
    });

    const writes = (await events(run.id, 'computer_use.write')).map((e) => e.step);
    const receipts = await events(run.id, 'computer_use.write.receipt');
    // Every write that was sent has exactly one receipt, and no read has one.
    expect(receipts.map((e) => e.step)).toEqual(writes);
    expect(writes).toContain(9);
    expect(receipts.find((e) => e.step === 9)?.details).toEqual({
      agent: 'sap-orders',
      idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      receipt: {
        message: { source: 'status', type: 'S', text: 'Sales order 4711 has been saved' },
        fresh: true,
      },
    });
    for (const step of run.steps) {
      if (step.classification !== 'write') expect(step).not.toHaveProperty('receipt');
    }
    // Typing the date changes no message: the receipt says there was none, not a stale one.
    expect(run.steps[7].receipt).toEqual({
      before: null,
      none: 'the application showed no message',
    });
  });

  it('ends the step refused_by_application on an E message, stores nothing, and the run goes on', async () => {
    const after = [
      {
        step: 'after the refusal',
        when: { text: '^Enter a valid date' },
        action: { action: 'fail', reason: 'the date was refused' },
      },
    ];
    await stack.configure({ planner: await stack.planner(va02('31.02.2026', after)) });
    const { run, held } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(held.map((h) => h.n)).toContain(9);
    // The run went on after the refusal: its next step saw the message and gave up.
    expect(run).toMatchObject({ status: 'failed', end_reason: 'fail' });
    expect(run.steps).toHaveLength(10);
    const message = 'Enter a valid date (DD.MM.YYYY), not "31.02.2026"';
    expect(run.steps[8]).toMatchObject({
      n: 9,
      classification: 'write',
      outcome: 'refused_by_application',
      error: `the application answered with an error message: ${message}`,
      receipt: { message: { source: 'status', type: 'E', text: message }, fresh: true },
    });
    expect(await saves(stack.sim)).toEqual([]);
    const save = (await events(run.id, 'computer_use.write.receipt')).find((e) => e.step === 9);
    expect(save?.details).toMatchObject({
      outcome: 'refused_by_application',
      why: `the application answered with an error message: ${message}`,
      receipt: { message: { type: 'E', text: message }, fresh: true },
    });
    // The write itself was sent after approval and audited as such.
    const write = (await events(run.id, 'computer_use.write')).find((e) => e.step === 9);
    expect(write?.details.approval_id).toEqual(expect.any(String));
  });

  it('does not take a message left from an earlier action for a later write’s answer', async () => {
    // The E message of the refused Save is still on the screen when the date is typed again: that
    // typing is not refused by it; the second Save's S message is its fresh answer.
    const after = [
      el('textbox', 'Req. Deliv. Date'),
      type('30.04.2026'),
      el('button', 'Save'),
      {
        when: { text: '^Sales order 4711 has been saved$' },
        action: { action: 'done', summary: 'saved on the second try' },
      },
    ];
    await stack.configure({ planner: await stack.planner(va02('31.02.2026', after)) });
    const { run } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    const outcomes = run.steps.map((s: any) => [s.n, s.outcome]);
    expect(outcomes.filter(([, o]: [number, string]) => o === 'refused_by_application')).toEqual([
      [9, 'refused_by_application'],
    ]);
    const retyped = run.steps.find(
      (s: any) => s.n > 9 && s.action?.action === 'type' && s.action.text === '30.04.2026',
    );
    expect(retyped.outcome).toBe('sent_after_approval');
    expect(retyped.receipt).toMatchObject({
      before: { type: 'E' },
      message: { type: 'E' },
      fresh: false,
    });
    const last = run.steps.filter((s: any) => s.classification === 'write').at(-1);
    expect(last.receipt).toMatchObject({ message: { type: 'S' }, fresh: true });
    expect(await saves(stack.sim)).toHaveLength(1);
  });

  it('lists the edits again at the next commit when the application refused the first', async () => {
    const rules = [
      { command_field: { transactions: ['VA02', 'VA03'] } },
      { title: '^Change Sales Order: Initial Screen$', keys: { Enter: 'read' } },
    ];
    const after = [
      el('textbox', 'Req. Deliv. Date'),
      type('30.04.2026'),
      el('button', 'Save'),
      {
        when: { text: '^Sales order 4711 has been saved$' },
        action: { action: 'done', summary: 'saved on the second try' },
      },
    ];
    await stack.configure({
      planner: await stack.planner(va02('31.02.2026', after)),
      approve_at: 'commit',
      screen_rules: rules,
      reason: 'VA02 typing is stored only by Save; the approver decides there',
    });
    const { run, held } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(run.steps[8]).toMatchObject({ n: 9, outcome: 'refused_by_application' });
    // Two commits held; the second lists the date again, from its value before the first try.
    expect(held).toHaveLength(2);
    const date = (changes: any[] | null) => changes?.find((c) => c.field === 'Req. Deliv. Date');
    expect(date(held[0].changes)).toMatchObject({ after: '31.02.2026' });
    const again = date(held[1].changes);
    expect(again).toMatchObject({ after: '30.04.2026' });
    expect(again.before).toBe(date(held[0].changes).before);
    expect(held[1].changes?.map((c) => c.field)).toContain('Order');
    expect(await saves(stack.sim)).toHaveLength(1);
  });

  it('takes a Save refused again in the same words for a refusal, and keeps every edit for the next commit', async () => {
    const rules = [
      { command_field: { transactions: ['VA02', 'VA03'] } },
      { title: '^Change Sales Order: Initial Screen$', keys: { Enter: 'read' } },
    ];
    const after = [
      // Saved again as it is: the application refuses it again, in the same words.
      { step: 'again', ...el('button', 'Save') },
      el('textbox', 'Req. Deliv. Date'),
      type('30.04.2026'),
      el('button', 'Save'),
      {
        when: { text: '^Sales order 4711 has been saved$' },
        action: { action: 'done', summary: 'saved on the third try' },
      },
    ];
    await stack.configure({
      planner: await stack.planner(va02('31.02.2026', after)),
      approve_at: 'commit',
      screen_rules: rules,
      reason: 'VA02 typing is stored only by Save; the approver decides there',
    });
    const { run, held } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    const message = 'Enter a valid date (DD.MM.YYYY), not "31.02.2026"';
    const refusal = `the application answered with an error message: ${message}`;
    expect(run.steps[8]).toMatchObject({ n: 9, outcome: 'refused_by_application' });
    // The second Save: the same E text stood there before it, and it is still its answer.
    expect(run.steps[9]).toMatchObject({
      n: 10,
      action: { action: 'click' },
      outcome: 'refused_by_application',
      error: refusal,
      receipt: {
        before: { source: 'status', type: 'E', text: message },
        message: { source: 'status', type: 'E', text: message },
        fresh: true,
      },
    });
    const receipt = (await events(run.id, 'computer_use.write.receipt')).find((e) => e.step === 10);
    expect(receipt?.details).toMatchObject({ outcome: 'refused_by_application', why: refusal });
    // Three commits held; the last still lists the order and the date from its value on first
    // sight: nothing the refused Saves "stored" dropped out of it.
    expect(held.map((h) => h.n)).toEqual([9, 10, 13]);
    const date = (changes: any[] | null) => changes?.find((c) => c.field === 'Req. Deliv. Date');
    expect(held[2].changes?.map((c) => c.field)).toEqual(['Order', 'Req. Deliv. Date']);
    expect(date(held[2].changes)).toMatchObject({
      before: date(held[0].changes).before,
      after: '30.04.2026',
    });
    expect(date(held[0].changes).before).not.toBe('31.02.2026');
    expect(await saves(stack.sim)).toHaveLength(1);
  });

  it('says so where the host serves no outline', async () => {
    await stack.configure(
      {},
      {
        'sap-blind': {
          screen_url: blind.url,
          screen_token_env: blind.tokenEnv,
          screen_tls: { fingerprint_sha256: blind.fingerprint },
          system: 'SAP GUI (sim, no outline)',
          planner: await stack.planner({
            steps: [
              { action: { action: 'click', x: 60, y: 45 } },
              type('/nVA03'),
              { action: { action: 'done', summary: 'typed' } },
            ],
          }),
        },
      },
    );
    const { run } = await runApprovingEveryWrite(stack, 'sap-blind');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    const writes = run.steps.filter((s: any) => s.classification === 'write');
    expect(writes.map((w: any) => w.n)).toContain(2);
    for (const w of writes) {
      expect(w.receipt).toEqual({
        before: null,
        none: "the screen host serves no outline: the application's message was not read",
      });
    }
    expect((await events(run.id, 'computer_use.write.receipt')).length).toBe(writes.length);
  });
});
