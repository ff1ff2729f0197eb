import { randomBytes } from 'node:crypto';
import { decodePng, pixelSha256 } from '../../src/computer-use/pixels/pixels';
import {
  chatAction,
  chatCompletion,
  fakeChatPlanner,
  type FakeProvider,
  startFakeProvider,
  textOf,
} from '../support/fake-provider';
import { PLANNER, startRemoteStack, type RemoteStack } from '../support/planner-work';
import { isEnded, type Stack } from '../support/stack';

/**
 * `redact_regions` hide text as well as pixels: an outline element whose rect meets a region loses
 * its name, description and value where Warden reads the outline, so no planner, worker, receipt
 * or store gets them, and nothing published is derived from the real pixels (a remote worker's
 * `frame.id` is the hash of the screen as published). A sim screen host over HTTPS showing order
 * 4711 with its customer's name, a status-bar message naming the customer, a remote planner's
 * worker (the test over the worker API) and a model planner (a fake provider over real HTTP).
 */

type Box = { x: number; y: number; width: number; height: number };

const CUSTOMER = 'Müller Industrietechnik';
const MESSAGE = 'Credit check: Müller Industrietechnik GmbH is over its limit';

describe('redact_regions: the outline under a region', () => {
  let remote: RemoteStack;
  let stack: Stack;
  let fake: FakeProvider;
  const keyEnv = `WARDEN_TEST_MODEL_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;

  beforeAll(async () => {
    process.env[keyEnv] = `sk-test-${randomBytes(16).toString('hex')}`;
    fake = await startFakeProvider();
    remote = await startRemoteStack();
    stack = remote.stack;
    await stack.grant(keyEnv, fake.url);
  });

  afterEach(() => remote.stopBeats());

  afterAll(async () => {
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  const act = async (action: Record<string, unknown>) =>
    expect((await stack.sim.call('POST', '/action', action)).status).toBe(200);

  async function elements(): Promise<Array<{ id: string; role: string; name: string; rect: Box }>> {
    return JSON.parse((await stack.sim.call('GET', '/elements')).body.toString());
  }

  /** The hash of the real frame (what the host sends as X-Frame-SHA256). */
  async function realFrame(): Promise<string> {
    return pixelSha256(decodePng((await stack.sim.call('GET', '/screenshot')).body));
  }

  /** Order 4711 shown as a person left it (VA03), a message on the status bar; the two boxes. */
  async function orderOnScreen(): Promise<{ customer: Box; status: Box }> {
    await stack.sim.reset();
    await act({ action: 'type', text: '/nVA03' });
    await act({ action: 'key', key: 'Enter' });
    await act({ action: 'type', text: '4711' });
    await act({ action: 'key', key: 'Enter' });
    await stack.sim.poke(MESSAGE);
    const outline = await elements();
    const customer = outline.find((e) => e.id === 'lbl-soldToName')!;
    expect(customer.name).toContain(CUSTOMER);
    const status = outline.find((e) => e.role === 'status')!;
    expect(status.name).toBe(MESSAGE);
    return { customer: customer.rect, status: status.rect };
  }

  async function stepScreen(runId: string): Promise<Buffer> {
    const response = await fetch(`${stack.api.url}/api/computer-use/runs/${runId}/steps/1/screen`, {
      headers: { authorization: `Bearer ${stack.tokens.operator}` },
    });
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  it("gives a remote worker neither the texts under the regions nor the real frame's hash", async () => {
    for (const redacting of [false, true]) {
      const boxes = await orderOnScreen();
      await stack.configure({
        planner: PLANNER,
        max_steps: 5,
        redact_regions: redacting ? [boxes.customer, boxes.status] : [],
        reason: 'the customer and the status bar are personal data',
      });
      const stop = await remote.heartbeat('w1');
      const run = await stack.start('look at order 4711');
      const work = await remote.waitingWork(run.id);
      const claimed = await remote.claim(work.id, 'w1');
      expect(claimed.status).toBe(200);
      const input = claimed.body.work.input;
      const published = JSON.stringify(input);
      const real = await realFrame();
      if (!redacting) {
        // The same screen without regions: the worker reads both, and the frame is the host's.
        expect(published).toContain(CUSTOMER);
        expect(published).toContain(MESSAGE);
        expect(input.frame.id).toBe(real);
      } else {
        expect(published).not.toContain('Müller');
        expect(published).not.toContain('Credit check');
        const customer = input.outline.elements.find(
          (e: { id: string }) => e.id === 'lbl-soldToName',
        );
        expect(customer).toMatchObject({ role: 'label', name: '', rect: boxes.customer });
        // The id names the pixels as published: the stored screen, its region black.
        expect(input.frame.id).not.toBe(real);
        expect(input.frame.id).toBe(pixelSha256(decodePng(await stepScreen(run.id))));
      }
      const answered = await remote.answer(work.id, {
        worker: 'w1',
        decision: { action: 'done', summary: 'looked' },
      });
      expect(answered.status).toBe(200);
      expect(await stack.waitFor(run.id, isEnded)).toMatchObject({ status: 'completed' });
      stop();
    }
  });

  it("tells a model planner nothing of an error message under a region: no text in its requests, the step's receipt or the audit", async () => {
    const NO_SUCH = 'Transaction ZZ99 does not exist';
    for (const redacting of [false, true]) {
      const { status } = await orderOnScreen();
      await stack.sim.reset();
      fake.reset();
      await stack.configure({
        planner: fakeChatPlanner(fake, keyEnv),
        require_write_approval: false,
        redact_regions: redacting ? [status] : [],
        reason: 'the status bar may name customers; test writes on a sim',
      });
      fake.script([
        chatCompletion(chatAction({ action: 'type', text: '/nZZ99' })),
        chatCompletion(chatAction({ action: 'key', key: 'Enter' })),
        chatCompletion(chatAction({ action: 'done', summary: 'no such transaction' })),
      ]);
      const run = await stack.start('open transaction ZZ99');
      const ended = await stack.waitFor(run.id, isEnded);
      expect(ended).toMatchObject({ status: 'completed', end_reason: 'done' });
      // The application refused the Enter either way: an E message's type is no screen text.
      expect(ended.steps[1]).toMatchObject({ outcome: 'refused_by_application' });
      const told = fake.requests.map(textOf).join('\n');
      const audit = await stack.api.request('GET', `/api/audit?run_id=${run.id}`, {
        token: stack.tokens.auditor,
      });
      expect(audit.status).toBe(200);
      for (const seen of [told, JSON.stringify(ended.steps), audit.text]) {
        if (redacting) expect(seen).not.toContain(NO_SUCH);
        else expect(seen).toContain(NO_SUCH);
      }
    }
  });
});
