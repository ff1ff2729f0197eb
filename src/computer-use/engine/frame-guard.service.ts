import { Injectable, Logger } from '@nestjs/common';
import { FRAME_PRECONDITION_CAPABILITY } from '@warden/protocol';
import type { Approval } from '../approvals/approval.entity';
import type { Step } from '../runs/step.entity';
import { frameIgnore } from '../pixels/frame-ignore';
import { VolatileMask } from '../pixels/pixels';
import { readPngHeader } from '../pixels/png-structure';
import {
  type FrameExpectation,
  type ScreenHost,
  ScreenHostError,
  type Screenshot,
} from '../host-client/screen-host.client';
import { ScreensService } from '../screens/screens.service';
import { screenChange } from './sending-decisions';
import { hostFailure, RunEnds, staleEnd } from './run-ends';
import type { StepContext } from './step-context';

/** How long what a host announced (GET /health) is believed before it is asked again. */
const CAPABILITY_TTL_MS = 60_000;

/** The screen an action was judged on. */
export interface JudgedScreen {
  png: Buffer;
  /** The host's hash of the frame (`X-Frame-SHA256`), when it sent one. */
  frameSha256?: string | null;
  /** Warden's own pixel SHA-256 of the PNG: the same definition as the frame hash (docs/screen-host.md). */
  pixelSha256?: string | null;
  /** SHA-256 of the real pixels under the agent's `redact_regions`, when it redacts. */
  hiddenSha256?: string | null;
  /** The host's coordinate space (`X-Screen-Width/Height`), which `ignore_regions` are in. */
  width: number;
  height: number;
}

/**
 * How an action is kept to the frame it was judged on (docs/rules.md, the frame rule): the host checks
 * it atomically with acting (`precondition`), or, for a host without that capability, Warden
 * compared a fresh screenshot right before the action (`checked`); or the screen has changed.
 */
export type FrameCheck =
  | { kind: 'precondition'; frame: FrameExpectation }
  | { kind: 'checked' }
  | { kind: 'changed'; why: string };

/**
 * The frame rule's side in the engine, and the one place that answers "is this still the screen
 * the action was judged or approved on": what to send with an action so the host acts only on the
 * frame it was judged on, Warden's own comparison where the host cannot do it (it does not
 * announce `frame_precondition`, or no longer holds the frame: `frame_unknown`), and the
 * comparison of a fresh screenshot with the screen an approved write was held on.
 */
@Injectable()
export class FrameGuard {
  private readonly logger = new Logger(FrameGuard.name);
  private readonly capable = new Map<string, { frame: boolean; until: number }>();

  constructor(private readonly screens: ScreensService) {}

  /** The check to make for an action judged on `judged`, right before it is sent. */
  async check(
    ctx: StepContext,
    judged: JudgedScreen,
    mask: VolatileMask | null,
  ): Promise<FrameCheck> {
    if (await this.hostChecksFrames(ctx.host)) {
      const expect = judged.frameSha256 ?? judged.pixelSha256;
      if (!expect) return { kind: 'changed', why: 'the screen it was judged on has no frame hash' };
      return { kind: 'precondition', frame: { expect, ignore: this.ignore(ctx, judged, mask) } };
    }
    return this.compareFresh(ctx, judged, mask, false);
  }

  /**
   * The host no longer holds the frame (`frame_unknown`): Warden compares a fresh screenshot with
   * the judged one itself; the same screen gives a precondition on the fresh frame.
   */
  recheck(ctx: StepContext, judged: JudgedScreen, mask: VolatileMask | null): Promise<FrameCheck> {
    return this.compareFresh(ctx, judged, mask, true);
  }

  /**
   * The fresh screenshot, when the screen is still the one the approver saw (`mask`: the pixels
   * that moved by themselves while the write was held); otherwise the run ends `stale_screen`,
   * audited `computer_use.write.stale` (thrown). `shot` is a screenshot already under way
   * (`screenshot`).
   */
  async approvedScreen(
    ctx: StepContext,
    step: Step,
    approval: Approval,
    mask: VolatileMask | null,
    shot: Promise<Screenshot | RunEnds> = this.screenshot(ctx),
  ): Promise<Screenshot> {
    const { fresh, stale } = await this.compareWithHeld(ctx, step, approval, mask, shot);
    if (stale) throw staleEnd(stale, approval);
    return fresh;
  }

  /**
   * The fresh screenshot and why it is not the screen the approver saw (`stale`: null when it is),
   * leaving out `mask` and the agent's `ignore_regions`; the screen host's failure is thrown as the
   * run's end.
   */
  async compareWithHeld(
    ctx: StepContext,
    step: Step,
    approval: Approval,
    mask: VolatileMask | null,
    shot: Promise<Screenshot | RunEnds> = this.screenshot(ctx),
  ): Promise<{ fresh: Screenshot; stale: string | null }> {
    const fresh = await shot;
    if (fresh instanceof RunEnds) throw fresh;
    const stale = await screenChange(
      { pngSha256: approval.screenSha256, hiddenSha256: step.hiddenSha256 },
      () => this.screens.get(ctx.run.tenant, approval.screenSha256),
      fresh,
      { mask, ignoreRegions: ctx.agent.ignore_regions },
    );
    return { fresh, stale };
  }

  /** A screenshot, or the screen host's failure as the run's end (it does not reject for it). */
  screenshot(ctx: StepContext): Promise<Screenshot | RunEnds> {
    return ctx.host.screenshot().catch((error: unknown) => {
      if (error instanceof ScreenHostError) return hostFailure(error);
      throw error;
    });
  }

  private async compareFresh(
    ctx: StepContext,
    judged: JudgedScreen,
    mask: VolatileMask | null,
    precondition: boolean,
  ): Promise<FrameCheck> {
    const fresh = await this.screenshot(ctx);
    if (fresh instanceof RunEnds) throw fresh;
    const why = await screenChange(
      { hiddenSha256: judged.hiddenSha256 },
      () => Promise.resolve(judged.png),
      fresh,
      { mask, ignoreRegions: ctx.agent.ignore_regions },
    );
    if (why !== null) return { kind: 'changed', why };
    if (!precondition) return { kind: 'checked' };
    if (!fresh.frameSha256) {
      return { kind: 'changed', why: 'the screen host sent no frame hash with its screenshot' };
    }
    const frame = { png: fresh.png, width: fresh.width, height: fresh.height };
    return {
      kind: 'precondition',
      frame: { expect: fresh.frameSha256, ignore: this.ignore(ctx, frame, mask) },
    };
  }

  private ignore(ctx: StepContext, judged: JudgedScreen, mask: VolatileMask | null) {
    const { width, height } = readPngHeader(judged.png);
    return frameIgnore({ width, height }, mask, ctx.agent.ignore_regions, {
      width: judged.width,
      height: judged.height,
    });
  }

  /** Whether the host announces the frame precondition (cached a minute per host; unknown: no). */
  private async hostChecksFrames(host: ScreenHost): Promise<boolean> {
    const known = this.capable.get(host.url);
    if (known && known.until > Date.now()) return known.frame;
    let frame = false;
    try {
      const health = await host.health();
      frame = health?.capabilities.includes(FRAME_PRECONDITION_CAPABILITY) ?? false;
    } catch (error) {
      // Not knowing is not having it: Warden then compares the screen itself.
      this.logger.warn(
        { err: error, host: host.url },
        'the screen host did not say what it can do',
      );
    }
    if (this.capable.size >= 256) this.capable.clear();
    this.capable.set(host.url, { frame, until: Date.now() + CAPABILITY_TTL_MS });
    return frame;
  }
}
