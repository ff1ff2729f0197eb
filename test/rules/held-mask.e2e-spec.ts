import { isEnded, startStack, Stack } from '../support/stack';
import { setTimeout as sleep } from 'node:timers/promises';
import { until } from '../support/until';
import { pngPixelFacts } from '../../src/computer-use/pixels/pixels';

/**
 * A held write's volatile mask is learnt after the write is held, while its approval is open
 * (docs/security.md): the approver is not kept waiting, and the resume's stale check is as strict as
 * ever. An approval decided before the mask is learnt waits for it; a mask that is never learnt
 * (its worker died while sampling) is given up and the screen compared whole. Real API, worker,
 * PostgreSQL, Redis and an HTTPS sim host whose caret blinks.
 */

const COMMAND = { role: 'textbox', name: 'Command field' };
const ONE_WRITE = {
  steps: [
    { action: { action: 'click', element: COMMAND } },
    { step: 'the write', action: { action: 'type', text: '/nVA03' } },
    { action: { action: 'done', summary: 'typed' } },
  ],
};

describe('the volatile mask of a held write, learnt while its approval is open', () => {
  let stack: Stack;

  beforeAll(async () => {
    // The deployment's default samples (2.6 s of them): long enough for an approval to be decided
    // while the mask is still being learnt.
    stack = await startStack({ maskSampling: 'deployed' });
    await stack.configure({ planner: await stack.planner(ONE_WRITE) });
  });

  afterAll(async () => {
    await stack?.sim.blink(false);
    await stack?.close();
  });

  beforeEach(async () => {
    await stack.sim.blink(false);
    await stack.sim.reset();
  });

  const typed = async () =>
    (await stack.sim.events()).filter((e) => e.type === 'action' && e.action?.action === 'type');
  const approval = async (id: string) =>
    (await stack.api.request('GET', `/api/approvals/${id}`, { token: stack.tokens.approver })).body;
  const approve = (id: string) =>
    stack.api.request('POST', `/api/approvals/${id}/approve`, {
      token: stack.tokens.approver,
      json: {},
    });
  const resume = (id: string) =>
    stack.api.request('POST', `/api/computer-use/runs/${id}/resume`, {
      token: stack.tokens.operator,
    });

  async function held(): Promise<{ id: string; approvalId: string; step: number }> {
    const run = await stack.start();
    const waiting = await stack.waitFor(
      run.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
    );
    expect(waiting.status).toBe('awaiting_approval');
    return {
      id: run.id,
      approvalId: waiting.pending_approval.id,
      step: waiting.pending_approval.step,
    };
  }

  it('holds before sampling; an approval decided meanwhile on a still screen is sent at once, compared whole', async () => {
    const run = await held();
    // The person already has the write while its screen is still being sampled.
    expect((await approval(run.approvalId)).volatile_mask).toBe('learning');
    expect((await approve(run.approvalId)).status).toBe(200);
    const sent = await resume(run.id);
    const steps = sent.body.steps as Array<{ n: number; outcome: string }>;
    expect(steps.find((s) => s.n === run.step)).toMatchObject({ outcome: 'sent_after_approval' });
    expect(await typed()).toHaveLength(1);
    // Every pixel was the approver's: no mask was needed, and none is used (given up by the resume,
    // or, on a machine slow enough for the sampling to end first, learnt empty).
    const after = await approval(run.approvalId);
    expect(after).toMatchObject({ status: 'spent', volatile_pixels: 0 });
    expect(['abandoned', 'learnt']).toContain(after.volatile_mask);
  });

  it('an approval decided meanwhile on a blinking screen waits for the mask where the caret changed, then sends', async () => {
    // Half the time the caret shows as it did when the write was held, and the write goes at once
    // (compared whole); the other half the resume must wait for the mask. Tried until it had to.
    let waited = false;
    for (let tries = 0; tries < 10 && !waited; tries++) {
      await stack.sim.reset();
      await stack.sim.blink(true);
      const run = await held();
      // The caret toggles every 250 ms: resumed 0, 125, 250 or 375 ms later, in turn.
      await sleep(125 * (tries % 4));
      expect((await approval(run.approvalId)).volatile_mask).toBe('learning');
      expect((await approve(run.approvalId)).status).toBe(200);
      const sent = await resume(run.id);
      const steps = sent.body.steps as Array<{ n: number; outcome: string }>;
      // Every try: the samples span several of the caret's periods, so it is always seen to come back.
      expect(steps.find((s) => s.n === run.step)).toMatchObject({
        outcome: 'sent_after_approval',
      });
      expect(await typed()).toHaveLength(1);
      const after = await approval(run.approvalId);
      expect(after.volatile_mask).not.toBe('learning');
      if (after.volatile_mask === 'learnt') {
        waited = true;
        // The caret, and no more than the caret.
        expect(after.volatile_pixels).toBeGreaterThan(0);
        expect(after.volatile_pixels).toBeLessThan(1000);
      }
    }
    expect(waited).toBe(true);
  }, 120_000);

  it('still sees a real change made while the mask is being learnt', async () => {
    await stack.sim.blink(true);
    const run = await held();
    expect((await approval(run.approvalId)).volatile_mask).toBe('learning');
    await approve(run.approvalId);
    // A message appears during the sampling and stays: it did not move by itself.
    await stack.sim.poke('Order 4711 is being processed by another user');
    expect((await approval(run.approvalId)).volatile_mask).toBe('learning');
    const stale = await resume(run.id);
    expect(stale.body).toMatchObject({ status: 'stopped', end_reason: 'stale_screen' });
    expect(await typed()).toEqual([]);
    const learnt = await approval(run.approvalId);
    expect(learnt.volatile_mask).toBe('learnt');
    expect(learnt.volatile_pixels).toBeLessThan(1000);
  });

  /** The pixel SHA-256 of the sim's screen now. */
  const screenNow = async () => {
    const shot = await stack.sim.call('GET', '/screenshot');
    expect(shot.status).toBe(200);
    return pngPixelFacts(shot.body).pixelSha256;
  };

  /** What a worker that died while sampling leaves behind: a mask still being learnt. */
  async function maskNeverLearnt(approvalId: string): Promise<void> {
    await until('the mask learnt', async () =>
      (await approval(approvalId)).volatile_mask === 'learnt' ? true : null,
    );
    await stack.api.db.sql(
      `UPDATE approvals SET mask_state = 'learning', volatile_mask = NULL, volatile_pixels = 0
        WHERE id = $1`,
      [approvalId],
    );
  }

  it('gives up a mask that is never learnt and compares the whole screen: a still screen is sent', async () => {
    const run = await held();
    await maskNeverLearnt(run.approvalId);
    await approve(run.approvalId);
    await resume(run.id);
    // The resume waits for the mask a bounded time (the samples and a margin), then goes on.
    const ended = await stack.waitFor(run.id, isEnded, 40_000);
    expect((await approval(run.approvalId)).volatile_mask).toBe('abandoned');
    expect(ended).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(await typed()).toHaveLength(1);
  }, 60_000);

  it('gives up a mask that is never learnt: a caret that blinked is then a change, nothing is sent', async () => {
    // Held while the caret was hidden (tried again until so), then the caret stops, shown.
    let run: Awaited<ReturnType<typeof held>> | null = null;
    for (let tries = 0; tries < 12 && !run; tries++) {
      await stack.sim.reset();
      await stack.sim.blink(true);
      // The caret starts shown and toggles every 250 ms: started 100 or 350 ms later, in turn.
      await sleep(100 + 250 * (tries % 2));
      const candidate = await held();
      const heldScreen = (await approval(candidate.approvalId)).screen_pixel_sha256;
      await stack.sim.blink(false);
      if (heldScreen !== (await screenNow())) run = candidate;
      else
        await stack.api.request('POST', `/api/computer-use/runs/${candidate.id}/cancel`, {
          token: stack.tokens.operator,
        });
    }
    if (!run) throw new Error('no write was held with the caret hidden in 12 tries');
    const { id, approvalId } = run;
    await maskNeverLearnt(approvalId);
    await approve(approvalId);
    await resume(id);
    const ended = await stack.waitFor(id, isEnded, 40_000);
    expect((await approval(approvalId)).volatile_mask).toBe('abandoned');
    expect(ended).toMatchObject({ status: 'stopped', end_reason: 'stale_screen' });
    expect(await typed()).toEqual([]);
  }, 120_000);
});
