import { randomBytes } from 'node:crypto';
import {
  chatAction,
  chatCompletion,
  FakeProvider,
  startFakeProvider,
} from '../support/fake-provider';
import { isEnded, SimHost, startSimHost, startStack, Stack } from '../support/stack';

/**
 * The frame rule (docs/rules.md, docs/screen-host.md): an action is performed only on the frame it was judged on. A
 * model "thinks" (the fake provider holds its answer) while the screen changes under it: a dialog
 * opens, a message appears, a caret blinks. Real sim screen hosts over HTTPS: one that checks the
 * frame itself, and one from before the frame precondition, for which Warden compares.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the frame rule', () => {
  let stack: Stack;
  let fake: FakeProvider;
  let oldHost: SimHost;
  const keyEnv = `WARDEN_TEST_MODEL_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;
  let field: { x: number; y: number };

  beforeAll(async () => {
    process.env[keyEnv] = `sk-test-${randomBytes(16).toString('hex')}`;
    fake = await startFakeProvider();
    stack = await startStack();
    oldHost = await startSimHost({ framePrecondition: false });
    await stack.grant(keyEnv, fake.url);
    await stack.grant(oldHost.tokenEnv, oldHost.url);
    const elements = JSON.parse(
      (await stack.sim.call('GET', '/elements')).body.toString(),
    ) as Array<{
      name: string;
      rect: { x: number; y: number; width: number; height: number };
    }>;
    const rect = elements.find((e) => e.name === 'Command field')!.rect;
    field = { x: rect.x + Math.floor(rect.width / 2), y: rect.y + Math.floor(rect.height / 2) };
  });

  afterAll(async () => {
    await oldHost?.close();
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  async function configure(sim: SimHost, extra: Record<string, unknown> = {}) {
    await sim.reset();
    await sim.blink(false);
    fake.reset();
    await stack.configure({
      screen_url: sim.url,
      screen_token_env: sim.tokenEnv,
      screen_tls: { fingerprint_sha256: sim.fingerprint },
      planner: {
        provider: 'openai-compatible',
        model: 'local-vlm',
        api_key_env: keyEnv,
        base_url: `${fake.url}/v1`,
        history_screens: 0,
      },
      ...extra,
    });
  }

  const performed = async (sim: SimHost) => (await sim.events()).filter((e) => e.type === 'action');

  for (const which of [
    'a host that checks the frame',
    'a host from before the frame precondition',
  ]) {
    it(`sends no click into a dialog that opened while the model thought (${which})`, async () => {
      const sim = which.startsWith('a host that') ? stack.sim : oldHost;
      await configure(sim);
      fake.script([
        async () => {
          // The model is thinking: a confirm dialog opens, whose first button saves the order.
          await sim.call('POST', '/sim/popup', {
            title: 'Save changes?',
            message: 'Save the changes to order 4711?',
            buttons: ['Yes', 'No'],
          });
          return chatCompletion(chatAction({ action: 'click', x: field.x, y: field.y }));
        },
        chatCompletion(chatAction({ action: 'done', summary: 'a dialog asks to save' })),
      ]);
      const run = await stack.start('look at the command field');
      const ended = await stack.waitFor(run.id, isEnded);
      expect(ended).toMatchObject({ status: 'completed', end_reason: 'done' });
      expect(ended.steps[0]).toMatchObject({ classification: 'read', outcome: 'screen_changed' });
      expect(ended.steps[0].error).toMatch(/changed/);
      expect(await performed(sim)).toEqual([]);
      const events = (await sim.events()).map((e) => e.type);
      expect(events).toContain('popup');
      expect(events).not.toContain('popup_closed');
      // The model was asked again, on the new screen.
      expect(fake.requests).toHaveLength(2);
    });
  }

  it('stops the run stale_screen when the screen changes under three actions in a row', async () => {
    await configure(stack.sim);
    const changing = (n: number) => async () => {
      await stack.sim.poke(`message ${n}`);
      return chatCompletion(chatAction({ action: 'click', x: field.x, y: field.y }));
    };
    fake.script([changing(1), changing(2), changing(3), changing(4)]);
    const run = await stack.start('look at the command field');
    const ended = await stack.waitFor(run.id, isEnded);
    expect(ended).toMatchObject({ status: 'stopped', end_reason: 'stale_screen' });
    expect(ended.summary).toMatch(/changed 3 times in a row/);
    expect(ended.steps.map((s: { outcome: string }) => s.outcome)).toEqual([
      'screen_changed',
      'screen_changed',
      'screen_changed',
    ]);
    expect(await performed(stack.sim)).toEqual([]);
  });

  it('is not thrown off by a blinking caret: a 20-step read run plans again at most twice', async () => {
    await configure(stack.sim);
    await stack.sim.blink(true);
    const reads = 20;
    let sent = 0;
    fake.script([], async (_request, index) => {
      if (index === 0)
        return chatCompletion(chatAction({ action: 'click', x: field.x, y: field.y }));
      if (sent >= reads) return chatCompletion(chatAction({ action: 'done', summary: 'read' }));
      // Every read moves the menu's selection, so each one changes the screen and the stall
      // rule never applies (a key that changes nothing would stall the run, blink or not).
      const moves = (await performed(stack.sim)).length - 1;
      const key = moves < 2 || moves % 2 === 1 ? 'ArrowDown' : 'ArrowUp';
      await sleep(300); // thinking for longer than the caret stays the same (250 ms)
      sent++;
      return chatCompletion(chatAction({ action: 'key', key }));
    });
    try {
      const run = await stack.start('read the command field');
      const ended = await stack.waitFor(run.id, isEnded, 90_000);
      expect(ended).toMatchObject({ status: 'completed', end_reason: 'done' });
      const outcomes = ended.steps.map((s: { outcome: string }) => s.outcome);
      const replanned = outcomes.filter((o: string) => o === 'screen_changed').length;
      expect(replanned).toBeLessThanOrEqual(2);
      expect(outcomes.filter((o: string) => o === 'sent').length).toBeGreaterThanOrEqual(reads - 2);
    } finally {
      await stack.sim.blink(false);
    }
  });
});
