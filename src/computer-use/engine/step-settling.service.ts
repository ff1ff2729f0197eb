import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { RunNow, RunsRepository } from '../runs/runs.repository';
import type { Step } from '../runs/step.entity';
import { ScreenHostError, type Screenshot } from '../host-client/screen-host.client';
import { hostFailure } from './run-ends';
import { settling, stalled, unchangedBy } from './settling-decisions';
import type { StepContext } from './step-context';
import { pause } from './step-timing';
import { WriteReceipts } from './write-receipts.service';

/**
 * After a screen action: waits until the screen is settled (two screenshots of the same frame in
 * a row, the agent's `settle_ms` or else SETTLE_INTERVAL_MS apart, bounded by SETTLE_MAX_MS), reads a write's receipt (what the application said) on the
 * settled screen, and counts screen actions after which the frame did not change; `stall_after` in
 * a row stop the run `stalled` (docs/step-flow.md). Frames, not PNG files: a host that
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
        const next = settling(previous, shot, Date.now(), until);
        if (next === 'settled') {
          settled = shot;
          break;
        }
        previous = shot;
        if (next === 'gave_up') break;
        await pause(ctx, ctx.agent.settle_ms ?? this.config.SETTLE_INTERVAL_MS);
      }
    } catch (error) {
      if (error instanceof ScreenHostError) throw hostFailure(error);
      throw error;
    }
    await this.receipts.read(ctx, step);
    const after = settled ?? previous;
    const now = await this.runs.recordScreenChange(ctx.run.id, unchangedBy(after, step));
    const stall = stalled(now?.unchanged_streak ?? 0, ctx.agent.stall_after);
    if (stall) throw stall;
    return now;
  }
}
