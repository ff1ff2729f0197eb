import type { Approval } from '../../src/computer-use/approvals/approval.entity';
import { ApprovalsRepository } from '../../src/computer-use/approvals/approvals.repository';
import { RunEnds } from '../../src/computer-use/engine/run-ends';
import { ScreenSampling } from '../../src/computer-use/engine/screen-sampling.service';
import { ScreenHostError } from '../../src/computer-use/host-client/screen-host.client';
import type { Run } from '../../src/computer-use/runs/run.entity';
import type { Step } from '../../src/computer-use/runs/step.entity';
import { dottedScreenshot, FakeScreenHost, solidScreenshot } from '../support/fake-screen-host';
import { type StageBed, startStageBed } from './stage-bed';

/** The screen as held, and with a caret of three pixels shown. */
const HELD = solidScreenshot(200);
const CARET: Array<[number, number]> = [
  [10, 10],
  [10, 11],
  [10, 12],
];
const BLINK = dottedScreenshot(200, CARET);
/** A block of 20 × 20 pixels changed: far more than 2% of the 64 × 48 screen. */
const BLOCK = dottedScreenshot(
  200,
  Array.from({ length: 400 }, (_, i): [number, number] => [20 + (i % 20), 5 + Math.floor(i / 20)]),
);
/** A message that appeared and stayed. */
const MESSAGE = dottedScreenshot(200, [[40, 40]]);

/**
 * ScreenSampling over a real PostgreSQL and a fake screen host: the volatile mask is the pixels
 * seen to move by themselves (none, or too many, is no mask); a held write's mask is recorded on
 * its approval unless its send stopped waiting for it, and a send waits for a mask still being
 * learnt, never past its deadline.
 */
describe('ScreenSampling', () => {
  let bed: StageBed;
  let sampling: ScreenSampling;

  beforeAll(async () => {
    bed = await startStageBed({ env: { MASK_SAMPLES: '5', MASK_INTERVAL_MS: '10' } });
    await bed.configure();
    sampling = bed.get(ScreenSampling);
  });

  afterAll(async () => {
    await bed?.close();
  });

  beforeEach(() => {
    bed.host.reset();
  });

  /** A run awaiting the approval of its held write, whose mask is being learnt. */
  async function heldWrite(heldAgo = '0 seconds'): Promise<{
    run: Run;
    step: Step;
    approval: Approval;
  }> {
    const { run, steps } = await bed.run({
      status: 'awaiting_approval',
      steps: [{ phase: 'held' }],
    });
    const created = await bed.approval(run, steps[0]);
    await bed.db.sql(
      `UPDATE approvals SET mask_state = 'learning', created_at = now() - $2::interval
        WHERE id = $1`,
      [created.id, heldAgo],
    );
    const approval = (await bed.get(ApprovalsRepository).findById(created.id))!;
    return { run, step: steps[0], approval };
  }
  const maskOf = async (id: string) =>
    (
      await bed.db.sql<{ mask_state: string; volatile_pixels: number }>(
        `SELECT mask_state, volatile_pixels FROM approvals WHERE id = $1`,
        [id],
      )
    )[0];

  describe('learnMask', () => {
    it('learns nothing on a screen that does not move', async () => {
      const { run } = await bed.run();
      bed.host.screenshots = [HELD];
      expect(await sampling.learnMask(bed.context(run))).toBe(null);
    });

    it('learns the pixels of a blinking caret, and only those', async () => {
      const { run } = await bed.run();
      bed.host.screenshots = [HELD, BLINK, HELD, BLINK, HELD];
      const mask = await sampling.learnMask(bed.context(run));
      expect(mask?.size).toBe(CARET.length);
      for (const [x, y] of CARET) expect(mask!.has(x, y)).toBe(true);
      expect(mask!.has(11, 10)).toBe(false);
    });

    it('masks nothing where too much of the screen moved', async () => {
      const { run } = await bed.run();
      bed.host.screenshots = [HELD, BLOCK, HELD, BLOCK, HELD];
      expect(await sampling.learnMask(bed.context(run))).toBe(null);
    });

    it('ends the run where the screen host fails', async () => {
      const { run } = await bed.run();
      bed.host.screenshots = [HELD, new ScreenHostError('unreachable', 'connection refused')];
      const thrown = await sampling.learnMask(bed.context(run)).catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(RunEnds);
      expect(thrown).toMatchObject({ reason: 'screen_host_error' });
    });
  });

  describe('learnForApproval', () => {
    it("records the held screen's caret on its approval", async () => {
      const { run, step, approval } = await heldWrite();
      bed.host.screenshots = [BLINK, HELD, BLINK, HELD, BLINK];
      await sampling.learnForApproval(bed.context(run), step, approval.id, HELD.png);
      expect(await maskOf(approval.id)).toEqual({ mask_state: 'learnt', volatile_pixels: 3 });
      const learnt = await bed.get(ApprovalsRepository).findById(approval.id);
      expect(learnt!.volatileMask).not.toBeNull();
    });

    it('keeps a change that appeared and stayed out of the mask', async () => {
      const { run, step, approval } = await heldWrite();
      bed.host.screenshots = [MESSAGE];
      await sampling.learnForApproval(bed.context(run), step, approval.id, HELD.png);
      expect(await maskOf(approval.id)).toEqual({ mask_state: 'learnt', volatile_pixels: 0 });
    });

    it('records nothing once the send gave up waiting for the mask', async () => {
      const { run, step, approval } = await heldWrite();
      await bed.get(ApprovalsRepository).giveUpMask(approval.id);
      bed.host.screenshots = [BLINK, HELD, BLINK, HELD, BLINK];
      await sampling.learnForApproval(bed.context(run), step, approval.id, HELD.png);
      expect(await maskOf(approval.id)).toEqual({ mask_state: 'abandoned', volatile_pixels: 0 });
    });

    it('stops its samples once the mask is given up, and records nothing', async () => {
      const { run, step, approval } = await heldWrite();
      const host = new FakeScreenHost();
      let taken = 0;
      // The approved write compared its screen whole and went on after the second sample.
      host.screenshot = async () => {
        if (++taken === 2) {
          await bed.get(ApprovalsRepository).abandonMask(approval.id);
          sampling.stopLearning(approval.id);
        }
        return taken % 2 === 0 ? BLINK : HELD;
      };
      await sampling.learnForApproval({ ...bed.context(run), host }, step, approval.id, HELD.png);
      expect(taken).toBe(2);
      expect(await maskOf(approval.id)).toEqual({ mask_state: 'abandoned', volatile_pixels: 0 });
    });

    it('gives the mask up and ends the run where the screen host fails', async () => {
      const { run, step, approval } = await heldWrite();
      bed.host.screenshots = [new ScreenHostError('unreachable', 'connection refused')];
      await sampling.learnForApproval(bed.context(run), step, approval.id, HELD.png);
      expect(await maskOf(approval.id)).toMatchObject({ mask_state: 'abandoned' });
      expect(await bed.runState(run.id)).toMatchObject({
        status: 'failed',
        end_reason: 'screen_host_error',
      });
    });
  });

  describe('settled', () => {
    it('waits for a mask still being learnt, and answers it learnt', async () => {
      const { run, approval } = await heldWrite();
      let recordedAt = 0;
      const recording = new Promise<void>((resolve) => setTimeout(resolve, 300)).then(async () => {
        recordedAt = Date.now();
        await bed.get(ApprovalsRepository).recordMask(approval.id, null, 0);
      });
      const settled = await sampling.settled(bed.context(run), approval);
      const answeredAt = Date.now();
      await recording;
      expect(settled.maskState).toBe('learnt');
      expect(recordedAt).toBeGreaterThan(0);
      expect(answeredAt).toBeGreaterThanOrEqual(recordedAt);
    });

    it('gives up a mask not learnt by its deadline: the screen is compared whole', async () => {
      const { run, approval } = await heldWrite('1 hour');
      const started = Date.now();
      const settled = await sampling.settled(bed.context(run), approval);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(settled.maskState).toBe('abandoned');
      expect(settled.volatileMask).toBe(null);
    });
  });
});
