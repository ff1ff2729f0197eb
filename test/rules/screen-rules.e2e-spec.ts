import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { isEnded, startSimHost, startStack, type SimHost, type Stack } from '../support/stack';
import { runApprovingEveryWrite, saves } from '../support/approving';

/**
 * Screen rules and the text field rule (docs/rules.md) end to end: real API, worker, PostgreSQL, Redis
 * and HTTPS sim screen hosts. With the two rules of issue 14, the VA02 change sends the transaction
 * code, its Enter and the Enter on the initial screen without a person, while typing the order, the
 * date and Save are still held; a click into the field "Order" is a read, rules or not. Without an
 * outline the command field is not located (those rules do not apply) and the title is read from
 * the title bar by OCR.
 */

jest.setTimeout(180_000);

const INITIAL = 'Change Sales Order: Initial Screen';
const RULES = [
  { command_field: { transactions: ['VA02', 'VA03'] } },
  { title: `^${INITIAL}$`, keys: { Enter: 'read' } },
];
const REASON = 'transaction codes and the initial screen of VA02 only navigate';

/** Where things are on the English sim's screens (screen-host/src/backends/sim/sim-layout.ts). */
const AT = {
  commandField: { x: 140, y: 66 },
  orderField: { x: 255, y: 183 },
};

const click = (at: { x: number; y: number }) => ({ action: { action: 'click', ...at } });
const type = (text: string) => ({ action: { action: 'type', text } });
const key = (k: string) => ({ action: { action: 'key', key: k } });
const done = (summary: string) => ({ action: { action: 'done', summary } });

/** Each step as [classification, outcome, why]. */
const decisions = (run: any) =>
  run.steps.map((s: any) => [s.n, s.classification, s.outcome, s.why]);

describe('screen rules, end to end', () => {
  let stack: Stack;
  let blind: SimHost;

  beforeAll(async () => {
    stack = await startStack();
    blind = await startSimHost({ elements: false });
    await stack.grant(blind.tokenEnv, blind.url);
  });

  afterAll(async () => {
    await stack?.close();
    await blind?.close();
  });

  beforeEach(async () => {
    await stack.sim.reset();
    await blind.reset();
  });

  /**
   * Runs `before`, then opens a dialog over the screen and lets the script press Enter into it;
   * answers the run once that Enter is held (or the run ended), and a way to reject it.
   */
  const enterIntoDialog = async (before: object[], screenRules: object[]) => {
    const dialog = { role: 'dialog', name: 'Leave transaction?' };
    await stack.configure({
      planner: await stack.planner({
        steps: [
          ...before,
          { when: { element: dialog }, patience: 40, ...key('Enter') },
          done('left'),
        ],
      }),
      screen_rules: screenRules,
      reason: REASON,
    });
    const started = await stack.start('open VA02');
    const last = before.length - 1;
    await stack.waitFor(started.id, (r) => r.steps?.[last]?.outcome === 'sent', 30_000);
    const opened = await stack.sim.call('POST', '/sim/popup', {
      title: dialog.name,
      message: 'Unsaved data will be lost.',
      buttons: ['Yes', 'No'],
    });
    expect(opened.status).toBe(200);
    const run = await stack.waitFor(
      started.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
      60_000,
    );
    expect(run.status).toBe('awaiting_approval');
    const reject = async () => {
      const rejected = await stack.api.request(
        'POST',
        `/api/approvals/${run.pending_approval.id}/reject`,
        { token: stack.tokens.approver, json: { comment: 'not into the dialog' } },
      );
      expect(rejected.status).toBe(200);
    };
    return { run, reject };
  };
  const HELD_ENTER = {
    action: { action: 'key', key: 'Enter' },
    classification: 'write',
    outcome: 'held',
    why: 'key Enter commits',
  };

  it('without rules: the click into the field “Order” is a read, typing, Enter and Save are held', async () => {
    await stack.configure({ planner: await stack.planner(VA02_EXAMPLE_SCRIPT) });
    const { run, held: approved } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(approved.map((h) => h.n)).toEqual([2, 3, 5, 6, 8, 9]);
    expect(run.steps[3]).toMatchObject({
      n: 4,
      action: { action: 'click', target: 'Order' },
      classification: 'read',
      outcome: 'sent',
      why: 'click on “Order” (a text field in the screen outline): focusing a field is a read',
    });
    expect(await saves(stack.sim)).toHaveLength(1);
  });

  it('with the two rules: /nVA02, its Enter and the Enter on the initial screen go without a person; Save is held', async () => {
    await stack.configure({
      planner: await stack.planner(VA02_EXAMPLE_SCRIPT),
      screen_rules: RULES,
      reason: REASON,
    });
    const { run, held: approved } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(decisions(run)).toEqual([
      [
        1,
        'read',
        'sent',
        'click on “Command field” (a text field in the screen outline): focusing a field is a read',
      ],
      [2, 'read', 'sent', 'typing “/nVA02” into the command field is navigation by screen rule 1'],
      [
        3,
        'read',
        'sent',
        'Enter after “/nVA02” in the command field is navigation by screen rule 1',
      ],
      [
        4,
        'read',
        'sent',
        'click on “Order” (a text field in the screen outline): focusing a field is a read',
      ],
      [5, 'write', 'sent_after_approval', 'typing into a field is a write'],
      [6, 'read', 'sent', `Enter on “${INITIAL}” is navigation by screen rule 2`],
      [
        7,
        'read',
        'sent',
        'click on “Req. Deliv. Date” (a text field in the screen outline): focusing a field is a read',
      ],
      [8, 'write', 'sent_after_approval', 'typing into a field is a write'],
      [9, 'write', 'sent_after_approval', 'click on “Save” (from the screen outline)'],
      [10, 'read', 'ended', 'done ends the run; nothing is sent'],
    ]);
    expect(approved.map((h) => h.n)).toEqual([5, 8, 9]);
    const saved = await saves(stack.sim);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ order: '4711', fields: { reqDelivDate: '30.04.2026' } });
  });

  it('keeps the write exception to a read rule: removing it needs governance.weaken, then Save goes as a read', async () => {
    // "Everything on the overview navigates, except Save" (issue 24).
    const overview = '^Change Standard Order \\d+: Overview$';
    const navigates = { title: overview, labels: { '.*': 'read' } };
    const saveWrites = { title: overview, labels: { '^Save$': 'write' } };
    // A planner that names the Save button without its verb (as a model may): only the rules decide.
    const planner = await stack.planner({
      ...VA02_EXAMPLE_SCRIPT,
      steps: VA02_EXAMPLE_SCRIPT.steps.map((s) =>
        'step' in s && s.step === 'save'
          ? { ...s, action: { ...s.action, target: 'the disk icon' } }
          : s,
      ),
    });
    await stack.configure({
      planner,
      screen_rules: [...RULES, navigates, saveWrites],
      reason: REASON,
    });
    const withoutSave = (token: string, reason: string | null) =>
      stack.configureAs(token, { planner, screen_rules: [...RULES, navigates], reason });
    const weakened = async () =>
      (
        await stack.api.request('GET', '/api/audit?type=governance.weaken&limit=200', {
          token: stack.tokens.auditor,
        })
      ).body.items;
    const audited = (await weakened()).length;

    // A plain admin cannot remove it: the Save on the overview is still held.
    const refused = await withoutSave(stack.tokens.admin, REASON);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'a screen rule change that may make a write a read (agent sap-orders) needs the permission governance.weaken as well as computer_use.admin',
    );
    const kept = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(kept.run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(kept.held.map((h) => h.n)).toEqual([5, 8, 9]);
    expect(kept.run.steps[8]).toMatchObject({
      classification: 'write',
      outcome: 'sent_after_approval',
      why: 'click on “Save” (from the screen outline) on “Change Standard Order 4711: Overview” is a write by screen rule 4',
    });

    // With the permission and a reason it is removed, audited naming what loosens.
    const accepted = await withoutSave(stack.tokens.weakener, 'Save is checked by the workflow');
    expect(accepted.status).toBe(200);
    const events = (await weakened()).slice(audited);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: 'wes',
      details: {
        agent: 'sap-orders',
        control: 'screen_rules',
        entries: [`no longer a write: labels matching “^Save$” on titles matching “${overview}”`],
        reason: 'Save is checked by the workflow',
        version: accepted.body.version,
      },
    });
    await stack.sim.reset();
    const loosened = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(loosened.held.map((h) => h.n)).toEqual([5, 8]);
    expect(loosened.run.steps[8]).toMatchObject({
      classification: 'read',
      outcome: 'sent',
      why: 'click on “Save” (from the screen outline) on “Change Standard Order 4711: Overview” is navigation by screen rule 3',
    });
  });

  it('a rule for the transaction the sim reports: VA02’s Enter goes without a person, a dialog’s Enter is held', async () => {
    const byTransaction = [RULES[0], { transactions: ['VA02'], keys: { Enter: 'read' } }];
    await stack.configure({
      planner: await stack.planner(VA02_EXAMPLE_SCRIPT),
      screen_rules: byTransaction,
      reason: REASON,
    });
    const { run, held: approved } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(run.steps[5]).toMatchObject({
      n: 6,
      action: { action: 'key', key: 'Enter' },
      classification: 'read',
      outcome: 'sent',
      why: 'Enter in transaction VA02 is navigation by screen rule 2',
    });
    expect(approved.map((h) => h.n)).toEqual([5, 8, 9]);
    expect(await saves(stack.sim)).toHaveLength(1);

    // The same rule while a dialog is open over a VA02 screen: the dialog takes the Enter.
    await stack.sim.reset();
    const { run: held, reject } = await enterIntoDialog(
      [click(AT.commandField), type('/nVA02'), key('Enter')],
      byTransaction,
    );
    expect(held.steps[3]).toMatchObject(HELD_ENTER);
    await reject();
  });

  it('holds a transaction code the rule does not list, and its Enter', async () => {
    await stack.configure({
      planner: await stack.planner({
        steps: [click(AT.commandField), type('/nFB50'), key('Enter'), done('opened FB50')],
      }),
      screen_rules: RULES,
      reason: REASON,
    });
    const { run, held: approved } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(approved.map((h) => h.n)).toEqual([2, 3]);
    expect(run.steps[2].why).toBe('key Enter commits');
  });

  it('holds the Enter after /nVA02 when a dialog opened over the screen: it has the focus', async () => {
    const { run, reject } = await enterIntoDialog([click(AT.commandField), type('/nVA02')], RULES);
    expect(run.steps[1].why).toBe(
      'typing “/nVA02” into the command field is navigation by screen rule 1',
    );
    // The host marks no focus behind a dialog, and the dialog's title is not the screen's.
    expect(run.steps[2]).toMatchObject(HELD_ENTER);
    await reject();
    const keys = (await stack.sim.events()).filter(
      (e) => e.type === 'action' && e.action.action === 'key',
    );
    expect(keys).toEqual([]);
  });

  it('without an outline: the command field is not located, the title bar is read by OCR', async () => {
    const script = {
      steps: [
        click(AT.commandField),
        type('/nVA02'),
        key('Enter'),
        click(AT.orderField),
        type('4711'),
        key('Enter'),
        done('order 4711 opened'),
      ],
    };
    await stack.configure(
      { planner: await stack.planner(VA02_EXAMPLE_SCRIPT), reason: REASON },
      {
        'sap-blind': {
          screen_url: blind.url,
          screen_token_env: blind.tokenEnv,
          screen_tls: { fingerprint_sha256: blind.fingerprint },
          system: 'SAP GUI (sim, no outline)',
          max_steps: 40,
          planner: await stack.planner(script),
          screen_rules: RULES,
          reason: REASON,
        },
      },
    );
    const { run, held: approved } = await runApprovingEveryWrite(stack, 'sap-blind');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    // The empty fields, the typing and the first Enter: no rule applies without an outline.
    expect(approved.map((h) => h.n)).toEqual([1, 2, 3, 4, 5]);
    expect(run.steps[2].why).toBe('key Enter commits');
    expect(run.steps[5]).toMatchObject({
      classification: 'read',
      outcome: 'sent',
      why: `Enter on “${INITIAL}” (the title read from the screen by OCR) is navigation by screen rule 2`,
    });
    const entered = (await blind.events()).filter(
      (e) => e.type === 'action' && e.action.action === 'key',
    );
    expect(entered).toHaveLength(2);
  });

  it('without an outline: no title rule applies while a dialog is open over the screen', async () => {
    await stack.configure(
      { planner: await stack.planner(VA02_EXAMPLE_SCRIPT), reason: REASON },
      {
        'sap-blind': {
          screen_url: blind.url,
          screen_token_env: blind.tokenEnv,
          screen_tls: { fingerprint_sha256: blind.fingerprint },
          system: 'SAP GUI (sim, no outline)',
          max_steps: 40,
          planner: await stack.planner({
            steps: [
              click(AT.commandField),
              type('/nVA02'),
              key('Enter'),
              { action: { action: 'wait', seconds: 3 } },
              key('Enter'),
              done('confirmed'),
            ],
          }),
          screen_rules: RULES,
          reason: REASON,
        },
      },
    );
    const started = await stack.start('open VA02', 'sap-blind');
    for (let i = 0; i < 3; i++) await stack.approveAndResume(started.id);
    await stack.waitFor(started.id, (r) => r.step_count >= 4 || isEnded(r));
    // The title bar still says “Change Sales Order: Initial Screen”; the dialog has the focus.
    const opened = await blind.call('POST', '/sim/popup', {
      title: 'Leave transaction?',
      message: 'Unsaved data will be lost.',
      buttons: ['Yes', 'No'],
    });
    expect(opened.status).toBe(200);
    const run = await stack.waitFor(
      started.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
      60_000,
    );
    expect(run.steps[4]).toMatchObject({
      action: { action: 'key', key: 'Enter' },
      classification: 'write',
      outcome: 'held',
      why: 'key Enter commits',
    });
    await stack.api.request('POST', `/api/approvals/${run.pending_approval.id}/reject`, {
      token: stack.tokens.approver,
      json: {},
    });
    const keys = (await blind.events()).filter(
      (e) => e.type === 'action' && e.action.action === 'key',
    );
    expect(keys).toHaveLength(1);
  });

  /**
   * A run under the two rules whose step 4, the Enter on VA02's initial screen that rule 2 makes a
   * read, waits for GO on the screen; meanwhile the agent is configured with `change` instead (the
   * same planner, no rules); then GO shows.
   */
  async function rulesDroppedWhileThePlannerThinks(change: Record<string, unknown>) {
    const script = {
      steps: [
        click(AT.commandField),
        type('/nVA02'),
        key('Enter'),
        { when: { text: '^GO$' }, patience: 60, ...key('Enter') },
        done('entered'),
      ],
    };
    const planner = await stack.planner(script);
    await stack.configure({ planner, screen_rules: RULES, reason: REASON });
    const started = await stack.start('open VA02');
    await stack.waitFor(started.id, (r) => r.step_count === 4 || isEnded(r));
    await new Promise((r) => setTimeout(r, 300)); // the planner is looking for GO
    await stack.configure({ planner, ...change });
    await stack.sim.poke('GO');
    return started;
  }

  it('holds a read after all when the rule that made it one is removed while the planner thinks', async () => {
    const started = await rulesDroppedWhileThePlannerThinks({});
    const run = await stack.waitFor(
      started.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
      60_000,
    );
    expect(run.pending_approval).toMatchObject({
      step: 4,
      action: { action: 'key', key: 'Enter' },
      why: `Enter on “${INITIAL}” is navigation by screen rule 2; the weakening that made it a read (unlabelled_clicks or a screen rule) is no longer in force as it was`,
    });
    const keys = (await stack.sim.events()).filter(
      (e) => e.type === 'action' && e.action.action === 'key',
    );
    expect(keys).toHaveLength(1);
    await stack.api.request('POST', `/api/computer-use/runs/${started.id}/cancel`, {
      token: stack.tokens.operator,
    });
  });

  it('records a read as the unapproved write it went as when its rule is removed and writes need no approval while the planner thinks', async () => {
    // The rules are gone, and the agent's writes need no approval: the Enter may go, as a write.
    const started = await rulesDroppedWhileThePlannerThinks({
      require_write_approval: false,
      reason: REASON,
    });
    const run = await stack.waitFor(started.id, isEnded, 60_000);
    expect(run.steps[3]).toMatchObject({
      action: { action: 'key', key: 'Enter' },
      classification: 'write',
      // Sent; the sim answers an Enter with no order number with an E message (its receipt).
      outcome: 'refused_by_application',
      error: 'the application answered with an error message: Fill in all required entry fields',
      why: expect.stringMatching(
        /is navigation by screen rule 2; sent as a write without approval: while it was planned/,
      ),
    });
    const writes = await stack.api.db.sql<{ step: number; details: Record<string, unknown> }>(
      `SELECT step, details FROM audit_events WHERE run_id = $1 AND type = 'computer_use.write'`,
      [started.id],
    );
    expect(writes.filter((w) => w.step === 4)).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({
          approval_id: null,
          without_approval: 'require_write_approval is off for this agent',
        }),
      }),
    ]);
  });
});
