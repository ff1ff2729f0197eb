import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { decodePng, learnVolatileMask, VolatileMask } from '../pixels/pixels';
import { ScreenHostError } from '../host-client/screen-host.client';
import { hostFailure } from './run-ends';
import type { StepContext } from './step-context';
import { pause } from './step-timing';

/**
 * At most this share of the screen may be masked as moving by itself (docs/rules.md: a screen where
 * more than 2% moves by itself counts as changed).
 */
export const MAX_VOLATILE_FRACTION = 0.02;

/**
 * Learns which pixels of the current screen move by themselves (a blinking caret, a clock): the
 * volatile mask of docs/rules.md, docs/security.md, for a held write's resume and for the frame its reads are
 * judged on.
 */
@Injectable()
export class ScreenSampling {
  private readonly logger = new Logger(ScreenSampling.name);

  constructor(private readonly config: AppConfig) {}

  /**
   * Samples the screen a few times over about a second and keeps the pixels that changed between
   * samples by themselves. Null when nothing moved, or when too much did: masking that could hide a
   * real change, so nothing is masked and any change counts.
   */
  async learnMask(ctx: StepContext): Promise<VolatileMask | null> {
    // Samples with equal PNG bytes have equal pixels and add nothing to the mask: only the first
    // of each is decoded, and a screen that never changed is not decoded at all.
    const samples = new Map<string, Buffer>();
    try {
      for (let i = 0; i < this.config.MASK_SAMPLES; i++) {
        if (i > 0) await pause(ctx, this.config.MASK_INTERVAL_MS);
        const shot = await ctx.host.screenshot();
        if (!samples.has(shot.pngSha256)) samples.set(shot.pngSha256, shot.png);
      }
    } catch (error) {
      if (error instanceof ScreenHostError) throw hostFailure(error);
      throw error;
    }
    if (samples.size < 2) return null;
    // Decoded one at a time as the mask is learnt: two decoded frames at once, however many samples.
    const mask = learnVolatileMask(decodeEach(samples.values()));
    return this.capped(ctx, mask);
  }

  /** The mask, or null when it is empty or covers more than MAX_VOLATILE_FRACTION of the screen. */
  capped(ctx: StepContext, mask: VolatileMask): VolatileMask | null {
    if (mask.size === 0) return null;
    if (mask.size > mask.width * mask.height * MAX_VOLATILE_FRACTION) {
      this.logger.warn(
        { run: ctx.run.id, pixels: mask.size },
        'the screen kept moving over a large area; no volatile mask',
      );
      return null;
    }
    return mask;
  }
}

function* decodeEach(pngs: Iterable<Buffer>) {
  for (const png of pngs) yield decodePng(png);
}
