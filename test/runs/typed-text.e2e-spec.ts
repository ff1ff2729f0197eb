import {
  anthropicComputer,
  anthropicTool,
  FakeProvider,
  startFakeProvider,
  textOf,
} from '../support/fake-provider';
import { ONE_WRITE, runApprovingEveryWrite } from '../support/approving';
import { isEnded, startSimHost, startStack, Stack } from '../support/stack';

/**
 * Text that is never typed (docs/rules.md): bidirectional controls from a model, a card number a
 * planner types in pieces into one field, and a password typed through a Tab from another field,
 * at run time and in a routine saved from a run. Through the real engine: API, worker, PostgreSQL, Redis
 * and an HTTPS sim screen host, whose own log says what reached the screen.
 */

const COMMAND = { role: 'textbox', name: 'Command field' };
const ORDER = { role: 'textbox', name: 'Order' };
const CURRENT_PASSWORD = { role: 'textbox', name: 'Current Password' };
const SPLIT_CARD = /the field would hold a card number .*not even in pieces/;
/** What the report's model typed from the command field of the password screen. */
const THROUGH_TAB = '\tOld-Pass-1\tNew-Pass-2\tNew-Pass-2';

describe('typed text Warden never sends', () => {
  let stack: Stack;
  let fake: FakeProvider;
  const keyEnv = `WARDEN_TEST_MODEL_KEY_${process.pid}`;

  beforeAll(async () => {
    // The model planner's key variable: the worker reads it when it starts.
    process.env[keyEnv] = `sk-ant-test-${'k'.repeat(32)}`;
    fake = await startFakeProvider();
    stack = await startStack();
    await stack.grant(keyEnv, fake.url);
  });

  afterAll(async () => {
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  beforeEach(async () => {
    await stack.sim.reset();
    fake.reset();
  });

  afterEach(async () => {
    // A test that failed half-way must not leave the screen host leased to its run.
    const { body } = await stack.api.request('GET', '/api/computer-use/runs?limit=200', {
      token: stack.tokens.operator,
    });
    for (const run of body.items) {
      if (isEnded(run)) continue;
      await stack.api.request('POST', `/api/computer-use/runs/${run.id}/cancel`, {
        token: stack.tokens.operator,
      });
    }
  });

  const modelPlanner = () => ({
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    api_key_env: keyEnv,
    base_url: fake.url,
  });

  /** The centre of the sim's command field, from its own outline. */
  const commandField = async () => {
    const elements = JSON.parse((await stack.sim.call('GET', '/elements')).body.toString());
    const r = elements.find((e: any) => e.area === 'command_field').rect;
    return { x: r.x + Math.floor(r.width / 2), y: r.y + Math.floor(r.height / 2) };
  };

  /** The texts the sim typed, in order, from its own log. */
  const typed = async (): Promise<string[]> =>
    (await stack.sim.events())
      .filter((e) => e.type === 'action' && e.action?.action === 'type')
      .map((e) => e.action.text as string);

  const refusals = async (runId: string) =>
    (
      await stack.api.request(
        'GET',
        `/api/audit?run_id=${runId}&type=computer_use.action.refused`,
        { token: stack.tokens.auditor },
      )
    ).body.items as Array<{ step: number; details: { action: any; why: string } }>;

  it("refuses a model's text with a right-to-left override, tells the model why, types nothing", async () => {
    await stack.configure({
      planner: {
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        api_key_env: keyEnv,
        base_url: fake.url,
      },
    });
    // Shown as "Invoice 4711" once reversed; typed as an override and "1174".
    fake.script([
      anthropicComputer({ action: 'type', text: 'Invoice \u202e1174' }),
      anthropicTool('done', { summary: 'gave up typing' }),
    ]);
    const started = await stack.start('type the invoice number');
    const run = await stack.waitFor(started.id, isEnded);
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done', invalid_actions: 1 });
    expect(run.steps[0]).toMatchObject({
      classification: 'invalid',
      outcome: 'refused',
      why: '“text” must not contain bidirectional controls (it has U+202E RIGHT-TO-LEFT OVERRIDE): they change the order in which text is shown, so a person could read something other than what is typed',
    });
    expect(await typed()).toEqual([]);
    const [refused] = await refusals(run.id);
    expect(refused).toMatchObject({ step: 1, details: { why: run.steps[0].why } });
    // The model was told why before it answered again.
    expect(fake.requests).toHaveLength(2);
    expect(textOf(fake.requests[1])).toContain('must not contain bidirectional controls');
  });

  it('refuses a script that would type a zero-width space, naming the step', async () => {
    const answer = await stack.api.request('POST', '/api/planners/scripted', {
      token: stack.tokens.admin,
      json: {
        name: 'zero-width',
        script: { steps: [{ action: { action: 'type', text: '4711\u200b' } }] },
      },
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(
      'steps[0].action.text: must not contain invisible characters (it has U+200B ZERO WIDTH SPACE)',
    );
  });

  it('refuses the second half of a card number typed into the field that holds the first', async () => {
    await stack.configure({
      planner: await stack.planner({
        steps: [
          { action: { action: 'click', element: COMMAND } },
          { step: 'first half', action: { action: 'type', text: '4111 1111 ' } },
          { action: { action: 'wait', seconds: 0.1 } },
          { step: 'second half', action: { action: 'type', text: '1111 1111' } },
          { action: { action: 'done', summary: 'typed' } },
        ],
      }),
    });
    const started = await stack.start('type a card number in two halves');
    // The first half is an ordinary write: a person approves it, and it is typed.
    const resumed = await stack.approveAndResume(started.id);
    expect(resumed.steps[1]).toMatchObject({ outcome: 'sent_after_approval' });
    const run = await stack.waitFor(started.id, isEnded);
    // The script stops at the step Warden refused: its done is never reached.
    expect(run).toMatchObject({ status: 'failed', end_reason: 'fail', invalid_actions: 1 });
    expect(run.steps.map((s: { outcome: string }) => s.outcome)).toEqual([
      'sent',
      'sent_after_approval',
      'sent',
      'refused',
      'ended',
    ]);
    expect(run.steps[4].action).toEqual({
      action: 'fail',
      reason: expect.stringMatching(
        /^steps\[3\] \(step "second half"\) was refused by Warden's rules \(with the text typed into this field before/,
      ),
    });
    expect(run.steps[3]).toMatchObject({
      classification: 'invalid',
      why: expect.stringMatching(SPLIT_CARD),
    });
    expect(await typed()).toEqual(['4111 1111 ']);
    // Recorded without the digits that would complete the number, on the step and in the audit.
    expect(run.steps[3].action).toEqual({ action: 'type', text: '•••• ••••' });
    const [refused] = await refusals(run.id);
    expect(refused).toMatchObject({ step: 4, details: { action: { text: '•••• ••••' } } });
  });

  it('refuses a password typed through Tab from the command field: nothing typed, nothing approved', async () => {
    await stack.configure({
      planner: modelPlanner(),
      // /nPWD and its Enter are navigation, so the only write of the run is the typing.
      screen_rules: [{ command_field: { transactions: ['PWD'] } }],
      reason: 'opening PWD is navigation',
    });
    const command = await commandField();
    fake.script([
      anthropicComputer({ action: 'left_click', coordinate: [command.x, command.y] }),
      anthropicComputer({ action: 'type', text: '/nPWD' }),
      anthropicComputer({ action: 'key', text: 'Return' }),
      anthropicComputer({ action: 'left_click', coordinate: [command.x, command.y] }),
      anthropicComputer({ action: 'type', text: THROUGH_TAB }),
      anthropicTool('done', { summary: 'gave up' }),
    ]);
    // Whatever is held is approved: the old rule held the typing "into the Command field".
    const { run, held } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(held).toEqual([]);
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done', invalid_actions: 1 });
    expect(run.steps[4]).toMatchObject({
      classification: 'invalid',
      outcome: 'refused',
      why: 'the text holds a Tab (character 1) with more text after it, which can reach the field “Current Password”, a password field; Warden never types into password fields, wherever the keystrokes land: send Tab as its own key action, so that each text is judged for the field it goes into',
      // Nothing after the Tab is stored: it may be a password.
      action: { action: 'type', text: `\t${'•'.repeat([...THROUGH_TAB].length - 1)}` },
    });
    expect(await typed()).toEqual(['/nPWD']);
    expect((await stack.sim.events()).some((e) => e.type === 'password_changed')).toBe(false);
    const stored = await stack.api.db.sql<{ n: number }>(
      `SELECT n FROM steps WHERE run_id = $1 AND action::text LIKE '%Pass-%'`,
      [run.id],
    );
    expect(stored).toEqual([]);
    expect(JSON.stringify(await refusals(run.id))).not.toContain('Pass-');
    // The model was told to send the Tab on its own.
    expect(textOf(fake.requests[5])).toContain('send Tab as its own key action');
  });

  it('refuses text through a Tab where the host serves no outline, at the first Tab', async () => {
    const blind = await startSimHost({ elements: false });
    try {
      await stack.grant(blind.tokenEnv, blind.url);
      await stack.configure(
        {},
        {
          'sap-blind': {
            screen_url: blind.url,
            screen_token_env: blind.tokenEnv,
            screen_tls: { fingerprint_sha256: blind.fingerprint },
            planner: await stack.planner({
              steps: [
                { action: { action: 'click', x: 60, y: 45 } },
                { step: 'through a Tab', action: { action: 'type', text: '4711\tgeheim' } },
                { action: { action: 'done', summary: 'typed' } },
              ],
            }),
          },
        },
      );
      const { run } = await runApprovingEveryWrite(stack, 'sap-blind');
      expect(run).toMatchObject({ status: 'failed', end_reason: 'fail', invalid_actions: 1 });
      expect(run.steps[1]).toMatchObject({
        classification: 'invalid',
        outcome: 'refused',
        why: 'the text holds a Tab (character 5) with more text after it, and Warden cannot tell which field that text reaches (the screen host serves no outline); send Tab as its own key action, so that each text is judged for the field it goes into',
        action: { action: 'type', text: '4711\t••••••' },
      });
      const sent = (await blind.events()).filter(
        (e) => e.type === 'action' && e.action?.action === 'type',
      );
      expect(sent).toEqual([]);
    } finally {
      await blind.close();
    }
  });

  it('never saves as a routine a password a run typed through Tab before the rule', async () => {
    await stack.configure({ planner: await stack.planner(ONE_WRITE) });
    const { run } = await runApprovingEveryWrite(stack, 'sap-orders');
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });
    // As a run recorded before Warden judged text after a Tab holds it: typed from the command
    // field, its evidence naming that field alone.
    await stack.api.db.sql(`UPDATE steps SET action = $2 WHERE run_id = $1 AND n = 2`, [
      run.id,
      JSON.stringify({ action: 'type', text: THROUGH_TAB }),
    ]);
    const saved = await stack.api.request('POST', `/api/computer-use/runs/${run.id}/script`, {
      token: stack.tokens.admin,
      json: { name: 'change the password' },
    });
    expect(saved.status).toBe(400);
    expect(saved.body.message).toContain(
      'step 2 typed text that goes on after a Tab (character 1), and the run did not record which fields that text could reach',
    );
    const planners = await stack.api.db.sql<{ n: number }>(
      `SELECT 1 AS n FROM scripted_planners WHERE script::text LIKE '%Pass-%'`,
    );
    expect(planners).toEqual([]);
  });

  it('stops a script at the step Warden refused: under an agent whose writes need no approval, nothing after it is sent', async () => {
    await stack.configure({
      planner: await stack.planner({
        steps: [
          { action: { action: 'click', element: COMMAND } },
          { action: { action: 'type', text: '/nPWD' } },
          { action: { action: 'key', key: 'Enter' } },
          {
            step: 'the old password',
            when: { element: CURRENT_PASSWORD },
            action: { action: 'type', text: 'geheim123' },
          },
          { step: 'confirm', action: { action: 'key', key: 'Enter' } },
          { action: { action: 'done', summary: 'changed' } },
        ],
      }),
      require_write_approval: false,
      reason: 'sandbox: the writes of this test need no person',
    });
    const started = await stack.start('change the password');
    const run = await stack.waitFor(started.id, isEnded);
    expect(run).toMatchObject({ status: 'failed', end_reason: 'fail', invalid_actions: 1 });
    expect(run.steps.map((s: { outcome: string }) => s.outcome)).toEqual([
      'sent',
      'sent',
      'sent',
      'refused',
      'ended',
    ]);
    expect(run.steps[4].action.reason).toMatch(
      /^steps\[3\] \(step "the old password"\) was refused by Warden's rules \(the focused field “Current Password” is a password field/,
    );
    // The Enter written for the screen the refused typing would have made was never sent.
    const enters = (await stack.sim.events()).filter(
      (e) => e.type === 'action' && e.action?.action === 'key' && e.action.key === 'Enter',
    );
    expect(enters).toHaveLength(1);
  });

  it('types the same digits into two fields', async () => {
    await stack.configure({
      planner: await stack.planner({
        steps: [
          { action: { action: 'click', element: COMMAND } },
          { action: { action: 'type', text: '/nVA02' } },
          { action: { action: 'key', key: 'Enter' } },
          { action: { action: 'click', element: COMMAND } },
          { action: { action: 'type', text: '4111 1111 ' } },
          { when: { element: ORDER }, action: { action: 'click', element: ORDER } },
          { action: { action: 'type', text: '1111 1111' } },
          { action: { action: 'done', summary: 'typed' } },
        ],
      }),
      require_write_approval: false,
      reason: 'sandbox: the writes of this test need no person',
    });
    const started = await stack.start('type digits into two fields');
    const run = await stack.waitFor(started.id, isEnded);
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done', invalid_actions: 0 });
    expect(await typed()).toEqual(['/nVA02', '4111 1111 ', '1111 1111']);
  });
});
