import { Injectable, Logger } from '@nestjs/common';
import type { ObservedScreen } from '../planner-contract/planner';
import { RunsRepository } from '../runs/runs.repository';
import { type ScreenCheck, ScreensService } from '../screens/screens.service';
import { observeFailure } from './planning-decisions';
import { ScreenSampling } from './screen-sampling.service';
import type { StepContext } from './step-context';
import { runMask } from './step-sending.service';

/**
 * Observing a step's screen: the screenshot and outline, stored by SHA-256, and what on the screen
 * moves by itself, learnt after an action met a changed screen.
 */
@Injectable()
export class StepObserving {
  private readonly logger = new Logger(StepObserving.name);

  constructor(
    private readonly runs: RunsRepository,
    private readonly screens: ScreensService,
    private readonly sampling: ScreenSampling,
  ) {}

  /**
   * A fresh screenshot and outline, stored once per distinct SHA-256. A screenshot that passes the
   * answer checks but fails `check` is taken again, a bounded number of times; then the run ends.
   * A run's first screen has its compressed data inflated, so that a host whose encoder is broken
   * stops the run before anything is sent; later screens have their structure checked, and their
   * data inflated where Warden uses their pixels or a write is held on them.
   */
  async observe(ctx: StepContext, check: ScreenCheck = 'structure'): Promise<ObservedScreen> {
    for (let attempt = 1; ; attempt++) {
      try {
        const shot = await ctx.host.screenshot();
        const [stored, outline] = await Promise.all([
          this.screens.store(ctx.run.tenant, shot, { check }),
          ctx.host.elements(),
        ]);
        return {
          sha256: stored.sha256,
          pixelSha256: stored.pixelSha256,
          width: shot.width,
          height: shot.height,
          png: shot.png,
          frameSha256: shot.frameSha256,
          hiddenSha256: shot.hiddenSha256,
          outline,
        };
      } catch (error) {
        const failed = observeFailure(error, attempt);
        if (failed === 'throw') throw error;
        if (failed !== 'retry') throw failed;
        this.logger.warn({ err: error, attempt }, 'a screenshot did not decode; taking another');
      }
    }
  }

  /**
   * Adds the pixels of the current screen that move by themselves to the run's volatile mask, which
   * its later actions leave out of the frame comparison (capped at MAX_VOLATILE_FRACTION, joined
   * with what was learnt before).
   */
  async learnVolatile(ctx: StepContext): Promise<void> {
    const learnt = await this.sampling.learnMask(ctx);
    if (!learnt) return;
    const before = runMask(ctx);
    const mask = this.sampling.capped(ctx, before ? before.union(learnt) : learnt) ?? learnt;
    const stored = mask.toBuffer();
    await this.runs.setVolatileMask(ctx.run.id, stored);
    ctx.run.volatileMask = stored;
  }
}
