import { randomBytes } from 'node:crypto';
import { PNG } from 'pngjs';
import {
  chatAction,
  chatCompletion,
  FakeProvider,
  imagesOf,
  startFakeProvider,
} from '../support/fake-provider';
import { isEnded, SimHost, startSimHost, startStack, Stack } from '../support/stack';

/**
 * `redact_regions` (issue 17 §2): rectangles blacked out in the stored screen and in what the
 * model sees, never in what the host acts on; and a change under them is still a change of the
 * screen. Real sim screen hosts over HTTPS (one that checks the frame itself, one from before the
 * frame precondition, for which Warden compares), a fake model provider over real HTTP.
 */

type Box = { x: number; y: number; width: number; height: number };

function decode(png: Buffer) {
  return PNG.sync.read(png);
}

function pixelAt(image: PNG, x: number, y: number): number[] {
  const i = (y * image.width + x) * 4;
  return [...image.data.subarray(i, i + 3)];
}

/** Whether every pixel of `box` (in screen coordinates, scaled to the image) is black. */
function allBlack(png: Buffer, box: Box, space: { width: number; height: number }): boolean {
  const image = decode(png);
  const sx = image.width / space.width;
  const sy = image.height / space.height;
  for (let y = Math.ceil(box.y * sy); y < Math.floor((box.y + box.height) * sy); y++) {
    for (let x = Math.ceil(box.x * sx); x < Math.floor((box.x + box.width) * sx); x++) {
      if (pixelAt(image, x, y).some((c) => c !== 0)) return false;
    }
  }
  return true;
}

describe('redact_regions', () => {
  let stack: Stack;
  let fake: FakeProvider;
  let oldHost: SimHost;
  const keyEnv = `WARDEN_TEST_MODEL_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;
  /** Where the sim shows a message (the status bar): what a poke changes, and all it changes. */
  let message: Box;
  let space: { width: number; height: number };
  let field: { x: number; y: number };

  async function screenshot(sim: SimHost): Promise<Buffer> {
    const answer = await sim.call('GET', '/screenshot');
    expect(answer.status).toBe(200);
    return answer.body;
  }

  beforeAll(async () => {
    process.env[keyEnv] = `sk-test-${randomBytes(16).toString('hex')}`;
    fake = await startFakeProvider();
    stack = await startStack();
    oldHost = await startSimHost({ framePrecondition: false });
    await stack.grant(keyEnv, fake.url);
    await stack.grant(oldHost.tokenEnv, oldHost.url);
    const health = JSON.parse((await stack.sim.call('GET', '/health')).body.toString());
    space = { width: health.width, height: health.height };
    const elements = JSON.parse(
      (await stack.sim.call('GET', '/elements')).body.toString(),
    ) as Array<{
      name: string;
      rect: Box;
    }>;
    const rect = elements.find((e) => e.name === 'Command field')!.rect;
    field = { x: rect.x + Math.floor(rect.width / 2), y: rect.y + Math.floor(rect.height / 2) };
    // The box of the pixels a message changes, in the coordinate space of actions.
    await stack.sim.reset();
    const before = decode(await screenshot(stack.sim));
    await stack.sim.poke('IBAN DE89 3704 0044 0532 0130 00');
    const after = decode(await screenshot(stack.sim));
    let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
    for (let y = 0; y < after.height; y++) {
      for (let x = 0; x < after.width; x++) {
        if (pixelAt(before, x, y).join() !== pixelAt(after, x, y).join()) {
          [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
        }
      }
    }
    expect(x1).toBeGreaterThan(0); // the message changed something
    const sx = space.width / after.width;
    const sy = space.height / after.height;
    // A margin of a few pixels, so that a longer message stays inside.
    message = {
      x: Math.max(0, Math.floor(x0 * sx) - 4),
      y: Math.max(0, Math.floor(y0 * sy) - 2),
      width: Math.ceil((x1 - x0 + 1) * sx) + 200,
      height: Math.ceil((y1 - y0 + 1) * sy) + 4,
    };
    expect(message.y).toBeGreaterThan(field.y + 20); // the command field is not under it
  });

  afterAll(async () => {
    await oldHost?.close();
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  async function configure(sim: SimHost, regions: Box[]) {
    await sim.reset();
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
      redact_regions: regions,
    });
  }

  const performed = async (sim: SimHost) => (await sim.events()).filter((e) => e.type === 'action');

  async function stepScreen(runId: string, n: number): Promise<Buffer> {
    const response = await fetch(
      `${stack.api.url}/api/computer-use/runs/${runId}/steps/${n}/screen`,
      { headers: { authorization: `Bearer ${stack.tokens.operator}` } },
    );
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  it('blacks out the region in the stored screen and in what the model sees, and in nothing else', async () => {
    for (const regions of [[], [message]]) {
      await configure(stack.sim, regions);
      await stack.sim.poke('IBAN DE89 3704 0044 0532 0130 00');
      fake.script([chatCompletion(chatAction({ action: 'done', summary: 'looked' }))]);
      const run = await stack.start('look at the screen');
      const ended = await stack.waitFor(run.id, isEnded);
      expect(ended).toMatchObject({ status: 'completed', end_reason: 'done' });
      const stored = await stepScreen(run.id, 1);
      const [seen] = imagesOf(fake.requests[0]);
      expect(allBlack(stored, message, space)).toBe(regions.length > 0);
      expect(allBlack(seen, message, space)).toBe(regions.length > 0);
      // The rest of the screen is as the host showed it: the command field is not black.
      const image = decode(stored);
      const fx = Math.floor((field.x * image.width) / space.width);
      const fy = Math.floor((field.y * image.height) / space.height);
      expect(pixelAt(image, fx, fy).some((c) => c !== 0)).toBe(true);
    }
  });

  it('counts a change under the region as a change: a read is not sent (host without the frame precondition)', async () => {
    await configure(oldHost, [message]);
    fake.script([
      async () => {
        // While the model thinks, only the redacted message changes.
        await oldHost.poke('IBAN changed while the model thought');
        return chatCompletion(chatAction({ action: 'click', x: field.x, y: field.y }));
      },
      chatCompletion(chatAction({ action: 'done', summary: 'the screen changed' })),
    ]);
    const run = await stack.start('look at the command field');
    const ended = await stack.waitFor(run.id, isEnded);
    expect(ended).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(ended.steps[0]).toMatchObject({ classification: 'read', outcome: 'screen_changed' });
    expect(ended.steps[0].error).toMatch(/under a redacted region/);
    expect(await performed(oldHost)).toEqual([]);
  });

  for (const which of [
    'a host that checks the frame',
    'a host from before the frame precondition',
  ]) {
    it(`sends an approved write once onto the screen the approver saw, and not after a change under the region (${which})`, async () => {
      const sim = which.startsWith('a host that') ? stack.sim : oldHost;
      for (const change of [false, true]) {
        await configure(sim, [message]);
        fake.script([
          chatCompletion(chatAction({ action: 'type', text: 'VA02' })),
          chatCompletion(chatAction({ action: 'done', summary: 'typed' })),
        ]);
        const run = await stack.start('type a transaction code');
        const held = await stack.waitFor(
          run.id,
          (r) => r.status === 'awaiting_approval' || isEnded(r),
        );
        expect(held.status).toBe('awaiting_approval');
        const approved = await stack.api.request(
          'POST',
          `/api/approvals/${held.pending_approval.id}/approve`,
          { token: stack.tokens.approver, json: {} },
        );
        expect(approved.status).toBe(200);
        if (change) await sim.poke('a new message under the redaction');
        const resumed = await stack.api.request('POST', `/api/computer-use/runs/${run.id}/resume`, {
          token: stack.tokens.operator,
        });
        expect(resumed.status).toBe(200);
        const ended = await stack.waitFor(run.id, isEnded);
        const typed = (await performed(sim)).filter((e) => e.action?.action === 'type');
        if (change) {
          expect(ended).toMatchObject({ status: 'stopped', end_reason: 'stale_screen' });
          expect(ended.summary).toMatch(/under a redacted region/);
          expect(typed).toEqual([]);
        } else {
          expect(ended).toMatchObject({ status: 'completed', end_reason: 'done' });
          expect(typed).toHaveLength(1);
        }
      }
    });
  }
});
