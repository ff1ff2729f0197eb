import { randomBytes } from 'node:crypto';
import { PNG } from 'pngjs';
import { SimBackend } from '../../screen-host/src/backends/sim/sim-backend';
import type { CheckedAction } from '../../screen-host/src/actions';
import {
  anthropicToolset,
  openaiActions,
  openaiDone,
  previousResults,
  type ToolsetCall,
} from '../support/fake-batches';
import {
  type FakeProvider,
  type FakeRequest,
  imagesOf,
  startFakeProvider,
} from '../support/fake-provider';
import { isEnded, startStack, type Stack } from '../support/stack';

/**
 * Today's computer-use tools answer several actions in one turn (a batch); Warden takes them one
 * at a time, each its own step through the engine's one path (docs/step-flow.md, "A batch"). On the
 * real sim screen host, against the fake provider speaking Anthropic's computer toolset and
 * OpenAI's GA computer tool: reads go, the first write is held on the screen where it lands and
 * ends the batch; an action whose target a dialog covers now is not sent; typing into a password
 * field is refused; a zoom and a screenshot are answered from the screen as it is then; the kill
 * switch stops a batch between two actions. Every action after the end is answered "not executed"
 * in the provider's own format when the model is next asked.
 */

/** The sim, with something it does by itself right after the first action it performs. */
class HookedSim extends SimBackend {
  afterFirst: (() => Promise<void>) | null = null;

  override async perform(action: CheckedAction): Promise<void> {
    await super.perform(action);
    const hook = this.afterFirst;
    this.afterFirst = null;
    await hook?.();
  }
}

const POPUP = {
  title: 'Information',
  message: 'The system will be unavailable from 18:00 for maintenance.',
  buttons: ['OK'],
};

describe('batched turns, governed action by action', () => {
  let stack: Stack;
  let fake: FakeProvider;
  const sim = new HookedSim('en');
  const keyEnv = `WARDEN_TEST_MODEL_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;
  let command: { x: number; y: number };

  beforeAll(async () => {
    process.env[keyEnv] = `sk-test-${randomBytes(16).toString('hex')}`;
    fake = await startFakeProvider();
    stack = await startStack({ sim: { backend: sim } });
    await stack.grant(keyEnv, fake.url);
    command = centre(await element('Command field'));
  });

  afterAll(async () => {
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  /** Runs a test started: ended after it, whatever became of it, so that the next has the host. */
  const started: string[] = [];

  beforeEach(async () => {
    sim.afterFirst = null;
    await stack.sim.reset();
  });

  afterEach(async () => {
    for (const id of started.splice(0)) {
      await stack.api.request('POST', `/api/computer-use/runs/${id}/cancel`, {
        token: stack.tokens.operator,
      });
    }
  });

  async function start(goal: string) {
    const run = await stack.start(goal);
    started.push(run.id);
    return run;
  }

  async function element(name: string): Promise<{ rect: any; role: string }> {
    const answer = await stack.sim.call('GET', '/elements');
    const elements = JSON.parse(answer.body.toString()) as Array<{
      name: string;
      rect: any;
      role: string;
    }>;
    const found = elements.find((e) => e.name === name);
    if (!found) throw new Error(`no element ${name} on the sim's screen`);
    return found;
  }

  const centre = (e: { rect: any }) => ({
    x: e.rect.x + Math.floor(e.rect.width / 2),
    y: e.rect.y + Math.floor(e.rect.height / 2),
  });

  async function configure(provider: 'anthropic' | 'openai') {
    await stack.configure({
      planner: {
        provider,
        model: provider === 'anthropic' ? 'claude-sonnet-5-5' : 'gpt-5.4',
        api_key_env: keyEnv,
        base_url: provider === 'anthropic' ? fake.url : `${fake.url}/v1`,
      },
    });
  }

  /** What reached the screen since `since` (the sim's log of performed actions). */
  async function performedSince(since: number) {
    const events = await stack.sim.events();
    return events
      .filter((e) => e.type === 'action' && e.seq > since)
      .map((e) => e.action as Record<string, unknown>);
  }

  async function lastSeq(): Promise<number> {
    return (await stack.sim.events()).at(-1)?.seq ?? 0;
  }

  const toolUseIds = (r: FakeRequest) =>
    (r.body.messages as any[])
      .filter((m) => m.role === 'assistant')
      .at(-1)
      .content.filter((b: any) => b.type === 'tool_use')
      .map((b: any) => b.id);

  it('anthropic toolset: read, read, write, read: two reads sent, the write held on its own screen, the last not executed', async () => {
    await configure('anthropic');
    const batch: ToolsetCall[] = [
      { name: 'key', input: { text: 'Down' } },
      { name: 'left_click', input: { coordinate: [command.x, command.y] } },
      { name: 'type', input: { text: '/nVA02' } },
      { name: 'key', input: { text: 'Tab' } },
    ];
    fake.script([
      anthropicToolset(batch, { text: 'I open VA02.' }),
      anthropicToolset([{ tool: 'done', input: { summary: 'typed' } }]),
    ]);
    const since = await lastSeq();
    const run = await start('Type /nVA02 into the command field');
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r));
    expect(held.status).toBe('awaiting_approval');
    expect(held.steps.map((s: any) => `${s.classification}:${s.outcome}`)).toEqual([
      'read:sent',
      'read:sent',
      'write:held',
    ]);
    const turn = held.steps[0].batch.turn;
    expect(held.steps.map((s: any) => s.batch)).toEqual([
      { turn, place: 1 },
      { turn, place: 2 },
      { turn, place: 3 },
    ]);
    // One model call for the three: the batch's later actions asked no model.
    expect(held.steps.map((s: any) => s.model.calls)).toEqual([1, 0, 0]);
    // The approver sees the screen where the write lands, not the one the model decided on.
    expect(held.pending_approval.screen_sha256).toBe(held.steps[2].screen_sha256);
    expect(held.steps[2].screen_sha256).not.toBe(held.steps[0].screen_sha256);
    expect(await performedSince(since)).toEqual([
      { action: 'key', key: 'ArrowDown' },
      { action: 'click', x: command.x, y: command.y },
    ]);

    await stack.approveAndResume(run.id);
    const done = await stack.waitFor(run.id, isEnded);
    expect(done).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(done.steps[2].outcome).toBe('sent_after_approval');
    expect(done.steps[3].batch).toEqual({ turn: expect.any(String), place: 1 });
    expect(done.steps[3].batch.turn).not.toBe(turn);
    // The Tab after the write never reached the screen.
    expect((await performedSince(since)).map((a) => a.action)).toEqual(['key', 'click', 'type']);

    // The toolset, GA: no beta, no display size.
    const [first, second] = fake.requests;
    expect(first.headers['anthropic-beta']).toBeUndefined();
    expect(first.body.tools[0].type).toBe('computer_toolset_20260801');
    // The next request answers each of the four calls with its tool_result, in order.
    expect(second.body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user']);
    const results = second.body.messages[2].content.filter((b: any) => b.type === 'tool_result');
    expect(results.map((r: any) => r.tool_use_id)).toEqual(toolUseIds(second));
    expect(results.every((r: any) => r.toolset_name === 'computer')).toBe(true);
    const seen = previousResults(second);
    expect(seen.map((r) => r.error)).toEqual([false, false, false, true]);
    expect(seen[2].text).toMatch(/approved by a person and sent/);
    expect(seen[3].text).toMatch(
      /^Call 4: not executed: call 3 was a write held for a person's approval/,
    );
    // The audit says which answer the held write came in.
    const held3 = await stack.api.db.sql<{ details: any }>(
      `SELECT details FROM audit_events WHERE run_id = $1 AND type = 'computer_use.write.held'`,
      [run.id],
    );
    expect(held3.map((e) => e.details.batch)).toEqual([{ turn, place: 3 }]);
  });

  it('openai GA tool: a second click that would land on a dialog opened after the first is not sent', async () => {
    await configure('openai');
    // The dialog opens by itself right after the first click reaches the screen.
    sim.afterFirst = async () => sim.popup(POPUP);
    fake.script([
      openaiActions([
        { type: 'click', button: 'left', x: command.x, y: command.y },
        { type: 'click', button: 'left', x: 640, y: 420 },
      ]),
      openaiDone('fail', { reason: 'a dialog is in the way' }),
    ]);
    const since = await lastSeq();
    const run = await start('Click around');
    const ended = await stack.waitFor(run.id, isEnded);
    expect(ended).toMatchObject({ status: 'failed', end_reason: 'fail' });
    expect(ended.steps[0]).toMatchObject({ classification: 'read', outcome: 'sent' });
    expect(ended.steps[1]).toMatchObject({ outcome: 'screen_changed', batch: { place: 2 } });
    expect(ended.steps[1].error).toMatch(
      /a dialog "Information" opened after the model saw the screen/,
    );
    // Nothing was sent onto the dialog: the first click only, and the dialog still open.
    expect(await performedSince(since)).toEqual([{ action: 'click', x: command.x, y: command.y }]);
    expect((await stack.sim.events()).some((e) => e.type === 'popup_closed' && e.seq > since)).toBe(
      false,
    );
    const [first, second] = fake.requests;
    expect(first.body.tools[0]).toEqual({ type: 'computer' });
    const outputAt = second.body.input.findIndex((i: any) => i.type === 'computer_call_output');
    expect(second.body.input[outputAt - 1].type).toBe('computer_call');
    expect(second.body.input[outputAt].call_id).toBe(second.body.input[outputAt - 1].call_id);
    expect(previousResults(second).map((r) => r.error)).toEqual([false, true]);
    expect(previousResults(second)[1].text).toMatch(/not sent: a dialog "Information" opened/);
  });

  it("openai GA tool: a call's safety checks hold its first screen action, acknowledged after approval only", async () => {
    await configure('openai');
    const checks = [
      { id: 'sc_1', code: 'malicious_instructions', message: 'the screen asks to act' },
    ];
    fake.script([
      openaiActions(
        [
          { type: 'wait' },
          { type: 'click', button: 'left', x: command.x, y: command.y },
          { type: 'keypress', keys: ['TAB'] },
        ],
        { safetyChecks: checks },
      ),
      openaiDone('done', { summary: 'clicked' }),
    ]);
    const run = await start('Click the command field');
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r));
    // The wait reaches no screen; the click, a read by the rules, waits for a person.
    expect(held.steps.map((s: any) => `${s.classification}:${s.outcome}`)).toEqual([
      'read:sent',
      'write:held',
    ]);
    expect(held.pending_approval.safety_checks).toEqual(checks);
    expect(fake.requests).toHaveLength(1);
    await stack.approveAndResume(run.id);
    const done = await stack.waitFor(run.id, isEnded);
    expect(done).toMatchObject({ status: 'completed', end_reason: 'done' });
    const second = fake.requests[1];
    const output = second.body.input.find((i: any) => i.type === 'computer_call_output');
    expect(output.acknowledged_safety_checks).toEqual(checks);
    expect(previousResults(second).map((r) => r.error)).toEqual([false, false, true]);
  });

  it('typing into a password field inside a batch is refused, and the rest is not executed', async () => {
    // The run starts on the password screen (PWD), reached before it by hand.
    for (const action of [
      { action: 'click', x: command.x, y: command.y },
      { action: 'type', text: '/nPWD' },
      { action: 'key', key: 'Enter' },
    ]) {
      expect((await stack.sim.call('POST', '/action', action)).status).toBe(200);
    }
    const field = centre(await element('Current Password'));
    await configure('anthropic');
    fake.script([
      anthropicToolset([
        { name: 'left_click', input: { coordinate: [field.x, field.y] } },
        { name: 'type', input: { text: 'hunter2-secret' } },
        { name: 'key', input: { text: 'Tab' } },
      ]),
      anthropicToolset([{ tool: 'fail', input: { reason: 'I may not type passwords' } }]),
    ]);
    const since = await lastSeq();
    const run = await start('Change my password');
    const ended = await stack.waitFor(run.id, isEnded);
    expect(ended).toMatchObject({ status: 'failed', end_reason: 'fail' });
    expect(ended.steps.map((s: any) => `${s.classification}:${s.outcome}`)).toEqual([
      'read:sent',
      'invalid:refused',
      'read:ended',
    ]);
    expect(ended.steps[1].why).toMatch(/password/i);
    expect(await performedSince(since)).toEqual([{ action: 'click', x: field.x, y: field.y }]);
    const seen = previousResults(fake.requests[1]);
    expect(seen.map((r) => r.error)).toEqual([false, true, true]);
    expect(seen[1].text).toMatch(/refused by Warden, nothing was sent/);
    expect(seen[2].text).toMatch(/not executed: Warden refused call 2/);
  });

  it('a zoom and a mid-batch screenshot are answered from the screen at that moment, and are no steps', async () => {
    await configure('anthropic');
    const region = [command.x - 60, command.y - 12, command.x + 60, command.y + 12];
    fake.script([
      anthropicToolset([
        { name: 'key', input: { text: 'Down' } },
        { name: 'screenshot', input: {} },
        { name: 'zoom', input: { region } },
        { name: 'key', input: { text: 'Up' } },
      ]),
      anthropicToolset([{ tool: 'done', input: { summary: 'looked' } }]),
    ]);
    const since = await lastSeq();
    const run = await start('Look at the command field');
    const done = await stack.waitFor(run.id, isEnded);
    expect(done).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(done.steps.map((s: any) => s.action.action)).toEqual(['key', 'key', 'done']);
    expect(done.steps[1].batch.place).toBe(4);
    // Only the two keys reached the host: a look is no action.
    expect((await performedSince(since)).map((a) => a.action)).toEqual(['key', 'key']);

    const [first, second] = fake.requests;
    const results = second.body.messages[2].content.filter((b: any) => b.type === 'tool_result');
    const imageOf = (r: any) =>
      Buffer.from(r.content.find((c: any) => c.type === 'image').source.data, 'base64');
    // The screenshot: the screen after the first key (the menu's selection moved), as the step
    // after it saw it, not the one the model decided on.
    const shown = await fetch(`${stack.api.url}/api/computer-use/runs/${run.id}/steps/2/screen`, {
      headers: { authorization: `Bearer ${stack.tokens.operator}` },
    });
    const afterKey = Buffer.from(await shown.arrayBuffer());
    expect(imageOf(results[1]).equals(afterKey)).toBe(true);
    expect(imageOf(results[1]).equals(imagesOf(first)[0])).toBe(false);
    // The zoom: that screen's own pixels in the region, at native resolution (not scaled).
    const zoom = PNG.sync.read(imageOf(results[2]));
    const screen = PNG.sync.read(afterKey);
    const [x0, y0, x1, y1] = region;
    expect([zoom.width, zoom.height]).toEqual([x1 - x0, y1 - y0]);
    for (const [zx, zy] of [
      [0, 0],
      [60, 12],
      [119, 23],
    ]) {
      const z = (zy * zoom.width + zx) * 4;
      const s = ((y0 + zy) * screen.width + x0 + zx) * 4;
      expect([...zoom.data.subarray(z, z + 4)]).toEqual([...screen.data.subarray(s, s + 4)]);
    }
    expect(results.map((r: any) => r.is_error === true)).toEqual([false, false, false, false]);
  });

  it('the kill switch engaged between two actions of a batch stops the run before the second', async () => {
    await configure('anthropic');
    sim.afterFirst = async () => {
      const r = await stack.api.request('PUT', '/api/admin/agents/sap-orders/kill-switch', {
        token: stack.tokens.admin,
        json: { engaged: true, reason: 'incident 9' },
      });
      expect(r.status).toBe(200);
    };
    fake.script([
      anthropicToolset([
        { name: 'left_click', input: { coordinate: [command.x, command.y] } },
        { name: 'key', input: { text: 'Tab' } },
        { name: 'key', input: { text: 'Tab' } },
      ]),
    ]);
    const since = await lastSeq();
    try {
      const run = await start('Walk the fields');
      const ended = await stack.waitFor(run.id, isEnded);
      expect(ended).toMatchObject({ status: 'stopped', end_reason: 'killed' });
      expect(await performedSince(since)).toEqual([
        { action: 'click', x: command.x, y: command.y },
      ]);
      expect(fake.requests).toHaveLength(1);
    } finally {
      await stack.api.request('PUT', '/api/admin/agents/sap-orders/kill-switch', {
        token: stack.tokens.admin,
        json: { engaged: false, reason: 'over' },
      });
    }
  });
});
