import { Injectable } from '@nestjs/common';
import type { Approval } from '../approvals/approval.entity';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { AppConfig } from '../../config/app-config';
import type { Action } from '../actions';
import { isWrite, type StepPhase } from '../runs/step-phase';
import type { Step } from '../runs/step.entity';
import type { SendGate } from '../runs/send-gate';
import { SendGateRepository } from '../runs/send-gate.repository';
import { StepFields, StepsRepository } from '../runs/steps.repository';
import { VolatileMask } from '../pixels/pixels';
import { ScreenHostError, type Screenshot } from '../host-client/screen-host.client';
import { ScreensService } from '../screens/screens.service';
import { type FrameCheck, FrameGuard, type JudgedScreen } from './frame-guard.service';
import { RunEnds, staleEnd, writeOutcomeUnknown } from './run-ends';
import { ScreenSampling } from './screen-sampling.service';
import { SendRecording } from './send-recording.service';
import { afterRefusal, notMarked, resendRefused, sentOtherwise } from './sending-decisions';
import type { StepContext } from './step-context';
import { refusedToSend, sentUnapprovedWhy } from './step-decisions';

/** Reads (and unapproved writes) met by a changed screen this many times in a row stop the run. */
export const MAX_SCREEN_CHANGES = 3;

/**
 * What a send came to: the action reached the host (`sent`; the caller settles the screen and goes
 * on), the screen changed before the host acted (`changed`; nothing was sent, the next step plans
 * on the new screen), an action that was to go without approval needs one after all (`hold`, and
 * why: the agent's config in force changed since the step read it, its writes need a person again
 * or the weakening that made it a read is gone; nothing was sent, the caller holds it),
 * or nothing more to do here (null).
 */
export type SendResult = { sent: Action } | { changed: string } | { hold: string } | null;

/**
 * Sending an action with the step's Idempotency-Key (docs/rules.md, docs/security.md, docs/operations.md). The step says `sending`
 * before the request leaves, only if every admin switch allows it (the send gate); the action
 * carries the frame it was judged on, so the host acts only on that frame (or Warden compares a
 * fresh screenshot itself right before, for a host that cannot). An approved write goes only onto
 * the screen the approver saw. A worker's death while sending is recovered from the host's word.
 */
@Injectable()
export class StepSending {
  constructor(
    private readonly config: AppConfig,
    private readonly steps: StepsRepository,
    private readonly gates: SendGateRepository,
    private readonly approvals: ApprovalsRepository,
    private readonly screens: ScreensService,
    private readonly frames: FrameGuard,
    private readonly recording: SendRecording,
    private readonly sampling: ScreenSampling,
  ) {}

  /**
   * Sends a decided action judged on `judged`: the step moves to `sending` (with its decision,
   * when `fields` are given, in the same statement) only through the send gate; then the host is
   * asked to act on that frame.
   */
  async send(
    ctx: StepContext,
    step: Step,
    action: Action,
    options: {
      from: StepPhase;
      judged: JudgedScreen;
      mask: VolatileMask | null;
      approval?: Approval;
      fields?: StepFields;
      /** A staged edit (commit-point approval): sent only while the agent stages typing. */
      staged?: boolean;
    },
  ): Promise<SendResult> {
    const classification = options.fields?.classification ?? step.classification;
    const unapprovedWrite = options.approval === undefined && classification === 'write';
    const loosening = options.fields?.loosenedBy ?? null;
    const { moved, gate } = await this.gates.markSending(step, options.from, {
      fields: options.fields,
      plannerState: ctx.plannerState,
      approved: options.approval !== undefined,
      unapprovedWrite,
      staged: options.staged,
      loosening,
      secret: ctx.secret,
    });
    if (!moved) {
      if (gate) this.refuseIfSwitchedOff(ctx, gate);
      // The agent's config changed since the step read it: a person decides after all; or the
      // run was cancelled or taken over meanwhile: nothing was sent.
      return notMarked(gate, unapprovedWrite);
    }
    // The gate let it go because the agent's writes need no approval now, not as it was decided
    // (staged, or a read by a weakening no longer in force): recorded and audited as what it was.
    const decided = sentOtherwise(gate, options.staged, loosening);
    if (decided) await this.gates.sentAsUnapprovedWrite(step, sentUnapprovedWhy(step.why, decided));
    return this.actOnFrame(ctx, step, action, options.judged, options.mask, options.approval);
  }

  /** The approval was spent by a resume: compare the screen with the held one, then send once. */
  async sendApproved(ctx: StepContext, step: Step): Promise<SendResult> {
    // The fresh screenshot is taken while the approval is read: a screenshot changes nothing.
    const shot = this.frames.screenshot(ctx);
    const found = await this.approvals.ofStep(step.id).catch(async (error: unknown) => {
      await shot.catch(() => undefined); // never left to fail unobserved
      throw error;
    });
    if (!found) {
      await shot.catch(() => undefined);
      throw new Error(`step ${step.id} is approved but has no approval`);
    }
    const { approval, fresh } =
      found.maskState === 'learning'
        ? await this.beforeMask(ctx, step, found, shot)
        : {
            approval: found,
            fresh: await this.frames.approvedScreen(ctx, step, found, heldMask(found), shot),
          };
    const mask = heldMask(approval);
    // Sent onto the frame just compared with the approved one.
    return this.send(ctx, step, approval.action, {
      from: step.phase,
      approval,
      judged: fresh,
      mask,
    });
  }

  /**
   * An approval decided before its screen's volatile mask was learnt. A screen that is still
   * exactly the held one (every pixel outside `ignore_regions`) needs no mask: the mask is given up
   * (the screen was compared whole) and the write goes on. Otherwise the mask is waited for (or
   * given up when it is never learnt) and a screenshot taken after it is compared with it.
   */
  private async beforeMask(
    ctx: StepContext,
    step: Step,
    approval: Approval,
    shot: Promise<Screenshot | RunEnds>,
  ): Promise<{ approval: Approval; fresh: Screenshot }> {
    const strict = await this.frames.compareWithHeld(ctx, step, approval, null, shot);
    if (!strict.stale) {
      const now = await this.approvals.abandonMask(approval.id);
      if (!now) throw new Error(`approval ${approval.id} is gone`);
      this.sampling.stopLearning(approval.id);
      return { approval: now, fresh: strict.fresh };
    }
    const settled = await this.sampling.settled(ctx, approval);
    const mask = heldMask(settled);
    return { approval: settled, fresh: await this.frames.approvedScreen(ctx, step, settled, mask) };
  }

  /**
   * A worker died while the step was `sending`. Ask the host whether the key was performed: yes,
   * record it; no, check the screen again as if for the first time and send; cannot tell: a
   * write's outcome is unknown (docs/operations.md), a read is sent again under the same key.
   */
  async recoverSending(ctx: StepContext, step: Step): Promise<SendResult> {
    const approval = await this.approvals.ofStep(step.id, 'spent');
    const action = approval?.action ?? (step.action as Action);
    const write = isWrite(step, approval);
    const performed = await this.recording.askHost(ctx, step);
    if (performed === true)
      return sentAs(await this.recording.sent(ctx, step, action, approval ?? undefined));
    if (performed === null && write) {
      throw writeOutcomeUnknown(step, action, approval, {
        summary: 'whether the write was sent is unknown; check the screen',
        error:
          'a worker stopped while sending this write and the screen host cannot say whether it acted',
      });
    }
    // Not performed: the screen must still be the one the action was decided (or approved) on.
    const judged = await this.judgedScreenOf(ctx, step);
    const mask = approval ? heldMask(approval) : runMask(ctx);
    if (approval) await this.frames.approvedScreen(ctx, step, approval, mask);
    const refused = await this.gateAgain(ctx, step, approval, write);
    if (refused !== undefined) return refused;
    if (!judged)
      return this.screenChanged(step, 'the step has no screenshot to compare with', approval);
    return this.actOnFrame(ctx, step, action, judged, mask, approval ?? undefined);
  }

  /**
   * The send gate asked again before an action goes to the host a second time (a resend after a
   * worker's death, or after the screen was sampled again): the same checks as the first time,
   * right before the effect. Undefined: it goes. Otherwise what the send came to: nothing sent,
   * the step `refused` (the run ended meanwhile, or the agent's writes need a person again); an
   * admin's switch ends the run (thrown).
   */
  private async gateAgain(
    ctx: StepContext,
    step: Step,
    approval: Approval | null,
    write: boolean,
  ): Promise<SendResult | undefined> {
    const gate = await this.gates.sendGate(step, approval !== null, ctx.secret);
    const refused = resendRefused(gate, {
      approved: approval !== null,
      write,
      staged: Boolean(step.staged),
    });
    if (refused === 'run_ended' || !gate) {
      // The run ended meanwhile (cancelled, expired): the host did not act, and nothing will.
      await this.steps.move(step, 'sending', 'done', {
        outcome: 'refused',
        error: 'the run ended before the action could be sent again; the screen host had not acted',
        endedAt: new Date(),
      });
      return null;
    }
    this.refuseIfSwitchedOff(ctx, gate);
    if (refused === 'needs_approval') {
      // The agent's writes need a person again (its config changed since the step was decided).
      const why =
        "the agent's writes need approval again; the host had not acted, nothing was sent";
      await this.steps.move(step, 'sending', 'done', {
        outcome: 'refused',
        error: why,
        endedAt: new Date(),
      });
      return { changed: why };
    }
    return undefined;
  }

  /**
   * Asks the host to act, held to the frame the action was judged on. A host that no longer holds
   * that frame gets Warden's own comparison and one more try on the fresh frame. An approved write
   * compared whole (no pixel known to move by itself) that meets a changed screen learns which
   * pixels of the held screen move by themselves, once, and goes on only if the screen is still
   * the held one outside them (`sampledAgain`).
   */
  private async actOnFrame(
    ctx: StepContext,
    step: Step,
    action: Action,
    judged: JudgedScreen,
    mask: VolatileMask | null,
    approval?: Approval,
  ): Promise<SendResult> {
    const write = isWrite(step, approval);
    let check = await this.frames.check(ctx, judged, mask);
    let sampled = false;
    for (let tries = 0; ; tries++) {
      if (check.kind === 'changed' && approval && mask === null && !sampled) {
        sampled = true;
        ({ judged, mask, check } = await this.sampledAgain(ctx, step, approval));
        // Seconds passed while sampling: an admin's switch or a cancel in them stops the send.
        if (check.kind !== 'changed') {
          const refused = await this.gateAgain(ctx, step, approval, write);
          if (refused !== undefined) return refused;
        }
      }
      if (check.kind === 'changed') return this.screenChanged(step, check.why, approval);
      if (write) this.fault('before-send');
      try {
        await ctx.host.act(
          action,
          step.id,
          check.kind === 'precondition' ? check.frame : undefined,
        );
        break;
      } catch (error) {
        if (!(error instanceof ScreenHostError)) throw error;
        const next = afterRefusal(error.kind, tries);
        if (next === 'recheck') {
          check = await this.frames.recheck(ctx, judged, mask);
          continue;
        }
        if (next === 'failed')
          return sentAs(await this.recording.afterFailedSend(ctx, step, action, error, approval));
        check = { kind: 'changed', why: next.changed };
      }
    }
    if (write) this.fault('after-send');
    return sentAs(await this.recording.sent(ctx, step, action, approval));
  }

  /**
   * The screen changed between judging the action and the host acting: nothing was sent. An
   * approved write ends the run `stale_screen`; anything else ends its step `screen_changed` and
   * the next step plans on the new screen, up to MAX_SCREEN_CHANGES in a row.
   */
  private async screenChanged(
    step: Step,
    why: string,
    approval: Approval | null | undefined,
  ): Promise<SendResult> {
    if (approval) throw staleEnd(why, approval);
    await this.steps.move(step, 'sending', 'done', {
      outcome: 'screen_changed',
      error: why,
      endedAt: new Date(),
    });
    const inARow = await this.steps.screenChangesInARow(step.runId, step.n);
    if (inARow >= MAX_SCREEN_CHANGES) {
      throw new RunEnds(
        'stale_screen',
        `the screen changed ${inARow} times in a row before an action could be sent; the last: ${why}`,
      );
    }
    return { changed: why };
  }

  /** The run ends (`killed`, or `approval_expired`) when the gate says an admin forbade the send. */
  private refuseIfSwitchedOff(ctx: StepContext, gate: SendGate): void {
    const refused = refusedToSend(gate, ctx.run.agent);
    if (refused) {
      throw new RunEnds(refused.reason, refused.summary, {
        outcome: 'refused',
        fields: { error: `not sent: ${refused.summary}` },
      });
    }
  }

  /**
   * An approved write was compared whole (its mask given up because the approval came before it
   * was learnt, or nothing moved while it was held) and the screen was not the same right before
   * the send: a caret may have blinked between the comparison and the host's capture. Nothing was
   * sent. The held screen's mask is learnt now, as while it was held (only pixels seen to leave
   * the held screen's value and come back to it), and a fresh screenshot is compared with the held
   * screen outside it: the same screen goes on onto that frame, with the mask; any other change
   * ends the run `stale_screen` (thrown), as before.
   */
  private async sampledAgain(
    ctx: StepContext,
    step: Step,
    approval: Approval,
  ): Promise<{ judged: JudgedScreen; mask: VolatileMask | null; check: FrameCheck }> {
    const held = await this.screens.get(ctx.run.tenant, approval.screenSha256);
    if (!held) throw staleEnd('the held screen is no longer stored', approval);
    const mask = await this.sampling.heldScreenMask(ctx, held);
    const fresh = await this.frames.approvedScreen(ctx, step, approval, mask);
    return { judged: fresh, mask, check: await this.frames.check(ctx, fresh, mask) };
  }

  /** The screen the step's action was judged on, from the store; null when it has none. */
  private async judgedScreenOf(ctx: StepContext, step: Step): Promise<JudgedScreen | null> {
    const png = step.screenSha256
      ? await this.screens.get(ctx.run.tenant, step.screenSha256)
      : null;
    if (!png || step.width === null || step.height === null) return null;
    return {
      png,
      frameSha256: step.frameSha256,
      pixelSha256: step.screenPixelSha256,
      hiddenSha256: step.hiddenSha256,
      width: step.width,
      height: step.height,
    };
  }

  /**
   * Fault injection for tests: with TEST_CRASH_AT set (accepted only with NODE_ENV=test), the
   * worker dies at that point of sending a write, as kill -9 would.
   */
  private fault(point: 'before-send' | 'after-send'): void {
    if (this.config.TEST_CRASH_AT === point) process.kill(process.pid, 'SIGKILL');
  }
}

function sentAs(action: Action | null): SendResult {
  return action ? { sent: action } : null;
}

/** The pixels that moved by themselves while the write was held. */
function heldMask(approval: Approval): VolatileMask | null {
  return approval.volatileMask ? VolatileMask.fromBuffer(approval.volatileMask) : null;
}

/** The pixels of the run's screens learnt to move by themselves (for its reads). */
export function runMask(ctx: StepContext): VolatileMask | null {
  const stored = ctx.run.volatileMask;
  if (!stored) return null;
  try {
    return VolatileMask.fromBuffer(stored);
  } catch {
    return null; // unreadable: every pixel is compared, which can only refuse more
  }
}
