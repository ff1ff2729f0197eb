import {
  anthropicComputer,
  anthropicTool,
  FakeProvider,
  startFakeProvider,
  textOf,
} from './support/fake-provider';
import { isEnded, startStack, Stack } from './support/stack';

/**
 * Text that is never typed (docs/rules.md): bidirectional controls from a model, and a card number a
 * planner types in pieces into one field. Through the real engine: API, worker, PostgreSQL, Redis
 * and an HTTPS sim screen host, whose own log says what reached the screen.
 */

const COMMAND = { role: 'textbox', name: 'Command field' };
const ORDER = { role: 'textbox', name: 'Order' };
const SPLIT_CARD = /the field would hold a card number .*not even in pieces/;

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
    expect(run).toMatchObject({ status: 'completed', end_reason: 'done', invalid_actions: 1 });
    expect(run.steps.map((s: { outcome: string }) => s.outcome)).toEqual([
      'sent',
      'sent_after_approval',
      'sent',
      'refused',
      'ended',
    ]);
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
