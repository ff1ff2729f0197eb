import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { RunNow, RunsRepository } from '../runs/runs.repository';
import type { Step } from '../runs/step.entity';
import { sameFrame } from '../screens/same-frame';
import { ScreenHostError, type Screenshot } from '../screens/screen-host.client';
import { hostFailure, RunEnds } from './run-ends';
import type { StepContext } from './step-context';
import { pause } from './step-timing';
import { WriteReceipts } from './write-receipts.service';

/**
 * After a screen action: waits until the screen is settled (two screenshots of the same frame in
 * a row, bounded by SETTLE_MAX_MS), reads a write's receipt (what the application said) on the
 * settled screen, and counts screen actions after which the frame did not change; `stall_after` in
 * a row stop the run `stalled` (DESIGN §4). Frames, not PNG files: a host that
 * encodes the same pixels into other bytes each time still settles, and can stall.
 */
@Injectable()
export class StepSettling {
  constructor(
    private readonly config: AppConfig,
    private readonly runs: RunsRepository,
    private readonly receipts: WriteReceipts,
  ) {}

  /** The run as the streak's statement returned it (null: no longer running). */
  async settle(ctx: StepContext, step: Step): Promise<RunNow | null> {
    let previous: Screenshot | null = null;
    let settled: Screenshot | null = null;
    const until = Date.now() + this.config.SETTLE_MAX_MS;
    try {
      for (;;) {
        const shot = await ctx.host.screenshot();
        if (previous && sameFrame(shot, previous)) {
          settled = shot;
          break;
        }
        previous = shot;
        if (Date.now() >= until) break;
        await pause(ctx, this.config.SETTLE_INTERVAL_MS);
      }
    } catch (error) {
      if (error instanceof ScreenHostError) throw hostFailure(error);
      throw error;
    }
    await this.receipts.read(ctx, step);
    const after = settled ?? previous;
    const unchanged =
      after !== null &&
      step.screenSha256 !== null &&
      sameFrame(after, { pngSha256: step.screenSha256, frameSha256: step.frameSha256 });
    const now = await this.runs.recordScreenChange(ctx.run.id, unchanged);
    const streak = now?.unchanged_streak ?? 0;
    if (streak >= ctx.agent.stall_after) {
      throw new RunEnds(
        'stalled',
        `${streak} screen actions in a row changed nothing on the screen`,
      );
    }
    return now;
  }
}
