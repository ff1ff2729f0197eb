import { FRAME_PRECONDITION_CAPABILITY } from '@warden/protocol';
import type { Approval } from '../../src/computer-use/approvals/approval.entity';
import { ApprovalsRepository } from '../../src/computer-use/approvals/approvals.repository';
import { FrameGuard } from '../../src/computer-use/engine/frame-guard.service';
import { RunEnds } from '../../src/computer-use/engine/run-ends';
import type { StepContext } from '../../src/computer-use/engine/step-context';
import { ScreenHostError } from '../../src/computer-use/host-client/screen-host.client';
import type { ScreenHostHealth } from '../../src/computer-use/host-client/screen-host.types';
import { VolatileMask } from '../../src/computer-use/pixels/pixels';
import type { Run } from '../../src/computer-use/runs/run.entity';
import type { Step } from '../../src/computer-use/runs/step.entity';
import { ScreensService } from '../../src/computer-use/screens/screens.service';
import { dottedScreenshot, FakeScreenHost, solidScreenshot } from '../support/fake-screen-host';
import { type StageBed, startStageBed, TENANT } from './stage-bed';

const HELD = solidScreenshot(200);
/** One pixel changed at (10, 10). */
const DOT = dottedScreenshot(200, [[10, 10]]);
const OTHER = solidScreenshot(90);

/** A host that checks the frame itself, atomically with acting (FakeScreenHost does not). */
class FrameCheckingHost extends FakeScreenHost {
  override readonly url: string = 'https://frame-checking-host.test';
  override health(): Promise<ScreenHostHealth | null> {
    return Promise.resolve({ capabilities: ['idempotency', FRAME_PRECONDITION_CAPABILITY] });
  }
}

/**
 * FrameGuard over a real PostgreSQL (the screen store) and fake screen hosts: an action is held
 * to the frame it was judged on, by the host where it can (a precondition) or by Warden's own
 * comparison of a fresh screenshot; an approved write goes only onto the screen the approver saw,
 * leaving out only its learnt mask and the agent's ignore_regions.
 */
describe('FrameGuard', () => {
  let bed: StageBed;
  let guard: FrameGuard;

  beforeAll(async () => {
    bed = await startStageBed();
    await bed.configure();
    guard = bed.get(FrameGuard);
  });

  afterAll(async () => {
    await bed?.close();
  });

  beforeEach(() => {
    bed.host.reset();
  });

  const judged = (shot = HELD, frameSha256: string | null = null) => ({
    png: shot.png,
    frameSha256,
    width: shot.width,
    height: shot.height,
  });
  const dotMask = () => {
    const bits = new Uint8Array(Math.ceil((64 * 48) / 8));
    const i = 10 * 64 + 10;
    bits[i >> 3] |= 1 << (i & 7);
    return VolatileMask.fromBits(64, 48, bits);
  };

  describe('check, on a host that cannot check frames', () => {
    it('lets an action go on the screen it was judged on', async () => {
      const { run } = await bed.run();
      bed.host.screenshots = [HELD];
      expect(await guard.check(bed.context(run), judged(), null)).toEqual({ kind: 'checked' });
    });

    it('finds a screen changed by a single pixel changed', async () => {
      const { run } = await bed.run();
      bed.host.screenshots = [DOT];
      expect(await guard.check(bed.context(run), judged(), null)).toMatchObject({
        kind: 'changed',
        why: expect.any(String),
      });
    });

    it('leaves out the pixels the mask says move by themselves, and only those', async () => {
      const { run } = await bed.run();
      bed.host.screenshots = [DOT];
      expect(await guard.check(bed.context(run), judged(), dotMask())).toEqual({ kind: 'checked' });
      bed.host.screenshots = [dottedScreenshot(200, [[11, 10]])];
      expect(await guard.check(bed.context(run), judged(), dotMask())).toMatchObject({
        kind: 'changed',
      });
    });

    it('leaves out the agent’s ignore_regions', async () => {
      const { run } = await bed.run();
      const ctx = bed.context(run);
      ctx.agent = { ...ctx.agent, ignore_regions: [{ x: 8, y: 8, width: 4, height: 4 }] };
      bed.host.screenshots = [DOT];
      expect(await guard.check(ctx, judged(), null)).toEqual({ kind: 'checked' });
    });

    it('answers the screen host’s failure as the run’s end', async () => {
      const { run } = await bed.run();
      bed.host.screenshots = [new ScreenHostError('unreachable', 'connection refused')];
      const thrown = await guard.check(bed.context(run), judged(), null).catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(RunEnds);
      expect(thrown).toMatchObject({ reason: 'screen_host_error' });
    });
  });

  describe('check, on a host that checks frames', () => {
    const withHost = (run: Run): StepContext => ({
      ...bed.context(run),
      host: new FrameCheckingHost(),
    });

    it('hands the host the judged frame’s hash and what it may ignore, taking no screenshot', async () => {
      const { run } = await bed.run();
      const ctx = withHost(run);
      (ctx.host as FakeScreenHost).screenshots = [new ScreenHostError('failed', 'not asked')];
      const check = await guard.check(ctx, judged(HELD, 'f'.repeat(64)), dotMask());
      expect(check).toMatchObject({ kind: 'precondition', frame: { expect: 'f'.repeat(64) } });
      expect(JSON.stringify(check)).toContain('ignore');
    });

    it('sends nothing for a judged screen with no frame hash at all', async () => {
      const { run } = await bed.run();
      expect(await guard.check(withHost(run), judged(), null)).toEqual({
        kind: 'changed',
        why: 'the screen it was judged on has no frame hash',
      });
    });

    it('rechecks a lost frame itself: a precondition on the same screen, fresh', async () => {
      const { run } = await bed.run();
      const ctx = withHost(run);
      (ctx.host as FakeScreenHost).screenshots = [{ ...HELD, frameSha256: 'e'.repeat(64) }];
      expect(await guard.recheck(ctx, judged(HELD, 'f'.repeat(64)), null)).toMatchObject({
        kind: 'precondition',
        frame: { expect: 'e'.repeat(64) },
      });
      (ctx.host as FakeScreenHost).screenshots = [HELD]; // no frame hash
      expect(await guard.recheck(ctx, judged(HELD, 'f'.repeat(64)), null)).toEqual({
        kind: 'changed',
        why: 'the screen host sent no frame hash with its screenshot',
      });
    });
  });

  describe('approvedScreen', () => {
    async function approved(): Promise<{ run: Run; step: Step; approval: Approval }> {
      const stored = await bed.get(ScreensService).store(TENANT, HELD);
      const { run, steps } = await bed.run({ steps: [{ phase: 'approved' }] });
      const created = await bed.approval(run, steps[0], { status: 'approved' });
      await bed.db.sql(`UPDATE approvals SET screen_sha256 = $2 WHERE id = $1`, [
        created.id,
        stored.sha256,
      ]);
      const approval = (await bed.get(ApprovalsRepository).findById(created.id))!;
      return { run, step: steps[0], approval };
    }

    it('answers the fresh screenshot where it is the screen the approver saw', async () => {
      const { run, step, approval } = await approved();
      bed.host.screenshots = [HELD];
      const fresh = await guard.approvedScreen(bed.context(run), step, approval, null);
      expect(fresh.pngSha256).toBe(HELD.pngSha256);
    });

    it('ends the run stale, audited, where one pixel outside the mask changed', async () => {
      const { run, step, approval } = await approved();
      bed.host.screenshots = [DOT];
      const thrown = await guard
        .approvedScreen(bed.context(run), step, approval, null)
        .catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(RunEnds);
      expect(thrown).toMatchObject({
        reason: 'stale_screen',
        event: { type: 'computer_use.write.stale', details: { approval_id: approval.id } },
      });
      bed.host.screenshots = [DOT];
      const masked = await guard.approvedScreen(bed.context(run), step, approval, dotMask());
      expect(masked.pngSha256).toBe(DOT.pngSha256);
    });

    it('ends the run stale where the held screenshot is missing', async () => {
      const { run, step, approval } = await approved();
      bed.host.screenshots = [OTHER];
      const gone = { ...approval, screenSha256: 'd'.repeat(64) };
      const thrown = await guard
        .approvedScreen(bed.context(run), step, gone, null)
        .catch((e: unknown) => e);
      expect(thrown).toMatchObject({
        reason: 'stale_screen',
        step: { fields: { error: 'the held screenshot is missing' } },
      });
    });
  });

  it('answers a screen host failure as the run’s end, never rejecting', async () => {
    const { run } = await bed.run();
    bed.host.screenshots = [new ScreenHostError('timeout', 'no answer')];
    const shot = await guard.screenshot(bed.context(run));
    expect(shot).toBeInstanceOf(RunEnds);
    expect(shot).toMatchObject({ reason: 'screen_host_error' });
  });
});
