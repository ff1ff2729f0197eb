import { RunEnds } from '../../src/computer-use/engine/run-ends';
import { StepSettling } from '../../src/computer-use/engine/step-settling.service';
import { ScreenHostError } from '../../src/computer-use/host-client/screen-host.client';
import type { Screenshot } from '../../src/computer-use/host-client/screen-host.types';
import type { Run } from '../../src/computer-use/runs/run.entity';
import type { Step } from '../../src/computer-use/runs/step.entity';
import { solidScreenshot } from '../support/fake-screen-host';
import { type StageBed, startStageBed } from './stage-bed';

const shot = (level: number): Screenshot => solidScreenshot(level);

/**
 * StepSettling over a real PostgreSQL and a fake screen host: after an action it takes
 * screenshots until two in a row show the same frame (not the same file), or gives up at
 * SETTLE_MAX_MS; it counts the actions after which the screen did not change, and `stall_after`
 * of them in a row stop the run.
 */
describe('StepSettling', () => {
  let bed: StageBed;
  let settling: StepSettling;

  beforeAll(async () => {
    bed = await startStageBed({ env: { SETTLE_MAX_MS: '300', SETTLE_INTERVAL_MS: '10' } });
    await bed.configure();
    settling = bed.get(StepSettling);
  });

  afterAll(async () => {
    await bed?.close();
  });

  beforeEach(() => {
    bed.host.reset();
  });

  /** A run whose read was just sent, judged on `judged` (none: no screen recorded). */
  async function sentRead(judged?: Screenshot): Promise<{ run: Run; step: Step }> {
    const { run, steps } = await bed.run({ steps: [{ phase: 'done', classification: 'read' }] });
    const step = steps[0];
    if (judged) {
      await bed.db.sql(`UPDATE steps SET screen_sha256 = $2 WHERE id = $1`, [
        step.id,
        judged.pngSha256,
      ]);
      step.screenSha256 = judged.pngSha256;
    }
    return { run, step };
  }
  const streakOf = async (runId: string) =>
    (
      await bed.db.sql<{ unchanged_streak: number }>(
        `SELECT unchanged_streak FROM runs WHERE id = $1`,
        [runId],
      )
    )[0].unchanged_streak;

  it('stops as soon as two screenshots in a row show the same frame', async () => {
    const { run, step } = await sentRead(shot(10));
    bed.host.screenshots = [shot(20), shot(30), shot(30), shot(40)];
    const now = await settling.settle(bed.context(run), step);
    expect(bed.host.screenshots).toEqual([shot(40)]); // never taken
    expect(now).toMatchObject({ status: 'running', unchanged_streak: 0 });
  });

  it('takes one frame in other bytes for the same frame', async () => {
    const { run, step } = await sentRead();
    const frame = 'f'.repeat(64);
    bed.host.screenshots = [
      { ...shot(20), frameSha256: frame },
      { ...shot(30), frameSha256: frame },
      shot(40),
      shot(50),
    ];
    await settling.settle(bed.context(run), step);
    expect(bed.host.screenshots).toEqual([shot(40), shot(50)]); // never taken
  });

  it('gives up on a screen that keeps changing, at the time to settle', async () => {
    const { run, step } = await sentRead();
    // Twice as many distinct frames as the time to settle has room for (a pause of 10 ms each).
    const levels = Array.from({ length: 64 }, (_, i) => i * 4);
    bed.host.screenshots = levels.map(shot);
    const started = Date.now();
    const now = await settling.settle(bed.context(run), step);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(bed.host.screenshots.length).toBeGreaterThan(1); // it stopped taking them
    expect(bed.host.screenshots.length).toBeLessThan(63); // after a few
    expect(now).toMatchObject({ unchanged_streak: 0 });
  });

  it('counts actions that changed nothing, and stops the run at stall_after of them in a row', async () => {
    const { run, step } = await sentRead(shot(200));
    const ctx = bed.context(run);
    ctx.agent = { ...ctx.agent, stall_after: 2 };
    bed.host.screenshots = [shot(200)];
    expect(await settling.settle(ctx, step)).toMatchObject({ unchanged_streak: 1 });
    const thrown = await settling.settle(ctx, step).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RunEnds);
    expect(thrown).toMatchObject({ reason: 'stalled' });
    expect(await streakOf(run.id)).toBe(2);
  });

  it('starts the count again after an action that changed the screen', async () => {
    const { run, step } = await sentRead(shot(200));
    const ctx = bed.context(run);
    ctx.agent = { ...ctx.agent, stall_after: 2 };
    bed.host.screenshots = [shot(200)];
    await settling.settle(ctx, step);
    bed.host.screenshots = [shot(100)];
    expect(await settling.settle(ctx, step)).toMatchObject({ unchanged_streak: 0 });
    bed.host.screenshots = [shot(200)];
    expect(await settling.settle(ctx, step)).toMatchObject({ unchanged_streak: 1 });
  });

  it('ends the run where the screen host fails', async () => {
    const { run, step } = await sentRead();
    bed.host.screenshots = [shot(20), new ScreenHostError('unreachable', 'connection refused')];
    const thrown = await settling.settle(bed.context(run), step).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RunEnds);
    expect(thrown).toMatchObject({ reason: 'screen_host_error' });
  });

  it('answers null for a run no longer running', async () => {
    const { run, step } = await sentRead();
    await bed.db.sql(`UPDATE runs SET status = 'stopped', end_reason = 'cancelled' WHERE id = $1`, [
      run.id,
    ]);
    expect(await settling.settle(bed.context(run), step)).toBe(null);
  });
});
