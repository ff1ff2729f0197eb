import { Injectable, Logger } from '@nestjs/common';
import type { Approval } from '../approvals/approval.entity';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { AppConfig } from '../../config/app-config';
import { decodePng, learnVolatileMask, ScreenError, VolatileMask } from '../pixels/pixels';
import type { Step } from '../runs/step.entity';
import { learnReturningMask } from '../pixels/returning-mask';
import { maskSampleOffsets } from '../pixels/sample-schedule';
import { ScreenHostError } from '../host-client/screen-host.client';
import { hostFailure, RunEnds, unusableScreen } from './run-ends';
import { RunLifecycle } from '../runs/run-lifecycle.service';
import { WARDEN_ACTOR } from '../../audit/warden-actor';
import type { StepContext } from './step-context';
import { pause } from './step-timing';

/**
 * At most this share of the screen may be masked as moving by itself (docs/rules.md: a screen where
 * more than 2% moves by itself counts as changed).
 */
export const MAX_VOLATILE_FRACTION = 0.02;

/** Beyond its samples' pauses, how long a held write's mask may take to learn (screenshots, decodes). */
const MASK_WAIT_MARGIN_MS = 10_000;

/** How often an approved write looks whether its mask is learnt. */
const MASK_POLL_MS = 50;

/**
 * Learns which pixels of the current screen move by themselves (a blinking caret, a clock): the
 * volatile mask of docs/rules.md, docs/security.md, for a held write's resume and for the frame its reads are
 * judged on.
 */
@Injectable()
export class ScreenSampling {
  private readonly logger = new Logger(ScreenSampling.name);
  /** The held writes whose mask this process is learning, by approval, each with its stop. */
  private readonly learning = new Map<string, AbortController>();

  constructor(
    private readonly config: AppConfig,
    private readonly approvals: ApprovalsRepository,
    private readonly lifecycle: RunLifecycle,
  ) {}

  /**
   * Learns the mask of a write held on the current screen, after it was held (its approval is open,
   * so nothing is sent to the screen meanwhile), and records it on the approval unless the
   * approved write gave up waiting for it. A sample that fails gives the mask up: the approved
   * write's screen is then compared whole. A screen host that fails, or a screen that cannot be
   * used (its size changed), ends the run as it would have before the hold; unless the mask was
   * settled meanwhile (the write may have gone on: what the samples saw then is not the held
   * screen's).
   */
  async learnForApproval(
    ctx: StepContext,
    step: Pick<Step, 'n'>,
    approvalId: string,
    held: Buffer,
  ): Promise<void> {
    const stop = new AbortController();
    this.learning.set(approvalId, stop);
    let mask: VolatileMask | null;
    try {
      mask = await this.heldScreenMask(ctx, held, stop.signal);
    } catch (error) {
      if (stop.signal.aborted) return;
      this.logger.warn(
        { err: error, run: ctx.run.id, approval: approvalId },
        "could not sample a held write's screen; it will be compared whole",
      );
      if (!(await this.approvals.giveUpMask(approvalId))) return;
      const ends =
        error instanceof RunEnds
          ? error
          : error instanceof ScreenError
            ? unusableScreen(error)
            : null;
      if (!ends) return;
      // As a cancel would: the approval expires, the held step keeps its outcome `held`.
      await this.lifecycle.end(ctx.run.id, ends.reason, ends.summary, WARDEN_ACTOR, {
        step: step.n,
      });
      return;
    } finally {
      this.learning.delete(approvalId);
    }
    // The mask was given up while it was being learnt: nothing to record.
    if (stop.signal.aborted) return;
    const recorded = await this.approvals.recordMask(
      approvalId,
      mask?.toBuffer() ?? null,
      mask?.size ?? 0,
    );
    if (!recorded) {
      this.logger.warn(
        { run: ctx.run.id, approval: approvalId },
        "a held write's mask was learnt after its send had given up waiting; not used",
      );
    }
  }

  /**
   * Stops the samples of a held write whose mask was given up (its approved write compared whole
   * and about to go on): what they would show from now is not the held screen, and nobody would
   * use it. Samples taken by another worker process end on their own, and their mask is refused.
   */
  stopLearning(approvalId: string): void {
    this.learning.get(approvalId)?.abort();
  }

  /**
   * The approval of a write about to be sent, with its mask settled: when it is still being learnt
   * (the approval was decided within the second after the hold), waits for it, at most until the
   * samples' time and a margin after the hold; then gives it up (its worker died): the screen is
   * compared whole, which can only refuse more. Never a mask that may still change.
   */
  async settled(ctx: StepContext, approval: Approval): Promise<Approval> {
    const deadline =
      Math.min(approval.createdAt.getTime(), Date.now()) +
      this.config.MASK_SAMPLES * this.config.MASK_INTERVAL_MS +
      MASK_WAIT_MARGIN_MS;
    let now = approval;
    while (now.maskState === 'learning') {
      if (Date.now() >= deadline) {
        this.logger.warn(
          { run: ctx.run.id, approval: approval.id },
          "a held write's mask was not learnt in time; its screen is compared whole",
        );
        now = (await this.approvals.abandonMask(approval.id)) ?? missing(approval);
        this.stopLearning(approval.id);
        break;
      }
      await pause(ctx, MASK_POLL_MS);
      now = (await this.approvals.findById(approval.id)) ?? missing(approval);
    }
    return now;
  }

  /**
   * Samples the screen a few times over a few seconds and keeps the pixels that changed between
   * samples by themselves. Null when nothing moved, or when too much did: masking that could hide a
   * real change, so nothing is masked and any change counts.
   */
  async learnMask(ctx: StepContext): Promise<VolatileMask | null> {
    // Samples with equal PNG bytes have equal pixels and add nothing to the mask: only the first
    // of each is decoded, and a screen that never changed is not decoded at all.
    const samples = new Map<string, Buffer>();
    try {
      for await (const _ of this.schedule(ctx)) {
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

  /**
   * The pixels of the held screen (`held`, its PNG) that were seen to leave their value and come
   * back to it over a few samples (learnReturningMask); null when none did, or too many. Taken while
   * nothing is sent to the screen: while the approval is open, or after an approved write met a
   * changed screen and was not sent. `stop` ends the samples early (null: nothing learnt).
   */
  async heldScreenMask(
    ctx: StepContext,
    held: Buffer,
    stop?: AbortSignal,
  ): Promise<VolatileMask | null> {
    // In order, a sample equal to the one before it left out: it shows nothing new.
    const samples: Buffer[] = [];
    let last: string | null = null;
    try {
      for await (const _ of this.schedule(ctx)) {
        if (stop?.aborted) return null;
        const shot = await ctx.host.screenshot();
        if (shot.pngSha256 !== last) samples.push(shot.png);
        last = shot.pngSha256;
      }
    } catch (error) {
      if (error instanceof ScreenHostError) throw hostFailure(error);
      throw error;
    }
    if (samples.length === 1 && samples[0].equals(held)) return null;
    const mask = learnReturningMask(decodePng(held), decodeEach(samples));
    return this.capped(ctx, mask);
  }

  /**
   * Yields when each sample is due (maskSampleOffsets): at its offset from the first, however long
   * the screenshots before it took.
   */
  private async *schedule(ctx: StepContext): AsyncGenerator<number> {
    const first = performance.now();
    for (const offset of maskSampleOffsets(
      this.config.MASK_SAMPLES,
      this.config.MASK_INTERVAL_MS,
    )) {
      const wait = first + offset - performance.now();
      if (wait > 0) await pause(ctx, wait);
      yield offset;
    }
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

function missing(approval: Approval): never {
  throw new Error(`approval ${approval.id} is gone`);
}

function* decodeEach(pngs: Iterable<Buffer>) {
  for (const png of pngs) yield decodePng(png);
}
