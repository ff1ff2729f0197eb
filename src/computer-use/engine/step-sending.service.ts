import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Approval } from '../../approvals/approval.entity';
import { ApprovalsRepository } from '../../approvals/approvals.repository';
import { AuditService } from '../../audit/audit.service';
import { AppConfig } from '../../config/app-config';
import type { Action } from '../actions';
import { isWrite, type StepPhase } from '../runs/step-phase';
import type { Step, StepOutcome } from '../runs/step.entity';
import { SendGate, StepFields, StepsRepository } from '../runs/steps.repository';
import { compareScreens, VolatileMask } from '../screens/pixels';
import { ScreenHostError, type Screenshot } from '../screens/screen-host.client';
import { ScreensService } from '../screens/screens.service';
import { SettingsService } from '../settings/settings.service';
import { hostFailure, RunEnds, staleEnd } from './run-ends';
import { refusedToSend } from './step-decisions';
import { ENGINE_ACTOR } from './run-ending.service';
import type { StepContext } from './step-context';
import { pause } from './step-timing';

/**
 * Sending an action with the step's Idempotency-Key (DESIGN §6, §11). The step says `sending`
 * before the request leaves; a write is audited with the statement that records it sent. An
 * approved write goes only onto the screen the approver saw. A request whose outcome is unknown
 * is asked about, never simply repeated; a worker's death while sending is recovered the same way.
 * Each method answers the action that reached the host and was recorded by this job (the caller
 * then settles the screen and goes on), or null when there is nothing more to do here.
 */
@Injectable()
export class StepSending {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly steps: StepsRepository,
    private readonly approvals: ApprovalsRepository,
    private readonly settings: SettingsService,
    private readonly screens: ScreensService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Sends a decided action: the step moves to `sending` (with its decision, when `fields` are
   * given, in the same statement) only if the run is running and computer use, the agent, its kill
   * switch, the tenant's pause (and for an approved write its approval) allow it, all read in the
   * transaction that marks it; then the host is asked to act.
   */
  async send(
    ctx: StepContext,
    step: Step,
    action: Action,
    options: { from: StepPhase; approval?: Approval; fields?: StepFields },
  ): Promise<Action | null> {
    const { moved, gate } = await this.steps.markSending(step, options.from, {
      fields: options.fields,
      plannerState: ctx.plannerState,
      approved: options.approval !== undefined,
    });
    if (!moved) {
      if (gate) this.refuseIfSwitchedOff(ctx, gate);
      return null; // cancelled or taken over meanwhile: nothing was sent
    }
    const write = isWrite(step, options.approval);
    if (write) this.fault('before-send');
    try {
      await ctx.host.act(action, step.id);
    } catch (error) {
      if (!(error instanceof ScreenHostError)) throw error;
      return this.afterFailedSend(ctx, step, action, error, options.approval);
    }
    if (write) this.fault('after-send');
    return this.sent(ctx, step, action, options.approval);
  }

  /** The approval was spent by a resume: compare the screen with the held one, then send once. */
  async sendApproved(ctx: StepContext, step: Step): Promise<Action | null> {
    // The fresh screenshot is taken while the approval and the kill switch are read: a screenshot
    // changes nothing, and the write still goes only after both checks and the comparison.
    const shot = this.freshScreenshot(ctx);
    const [approval, kill] = await Promise.all([
      this.approvals.ofStep(step.id),
      this.settings.killSwitch(ctx.run.tenant, ctx.run.agent),
    ]).catch(async (error: unknown) => {
      await shot.catch(() => undefined); // never left to fail unobserved
      throw error;
    });
    if (!approval) {
      await shot.catch(() => undefined);
      throw new Error(`step ${step.id} is approved but has no approval`);
    }
    if (kill?.engaged) {
      await shot.catch(() => undefined);
      throw new RunEnds('killed', `kill switch engaged: ${kill.reason}`, {
        outcome: 'refused',
        fields: { error: `kill switch engaged before the approved write was sent: ${kill.reason}` },
      });
    }
    const stale = await this.staleness(ctx, approval, shot);
    if (stale) throw staleEnd(stale, approval);
    return this.send(ctx, step, approval.action, { from: step.phase, approval });
  }

  /**
   * A worker died while the step was `sending`. Ask the host whether the key was performed: yes,
   * record it; no, check the screen again as if for the first time and send; cannot tell: a
   * write's outcome is unknown (DESIGN §11), a read is sent again under the same key.
   */
  async recoverSending(ctx: StepContext, step: Step): Promise<Action | null> {
    const approval = await this.approvals.ofStep(step.id, 'spent');
    const action = approval?.action ?? (step.action as Action);
    const write = isWrite(step, approval);
    const performed = await this.askHost(ctx, step);
    if (performed === true) return this.sent(ctx, step, action, approval ?? undefined);
    if (performed === null && write) {
      throw new RunEnds(
        'outcome_unknown',
        'whether the write was sent is unknown; check the screen',
        {
          outcome: null,
          fields: {
            error:
              'a worker stopped while sending this write and the screen host cannot say whether it acted',
          },
        },
      );
    }
    if (write) {
      // Not performed: the screen must still be the one the write was decided (or approved) on.
      const stale = approval
        ? await this.staleness(ctx, approval)
        : await this.changedSince(ctx, step);
      if (stale) throw staleEnd(stale, approval);
    }
    // Sent again: the same checks as the first time, right before the effect.
    const gate = await this.steps.sendGate(step, approval !== null);
    if (!gate || gate.runStatus !== 'running') {
      // The run ended meanwhile (cancelled, expired): the host did not act, and nothing will.
      await this.steps.move(step, 'sending', 'done', {
        outcome: 'refused',
        error: 'the run ended before the action could be sent again; the screen host had not acted',
        endedAt: new Date(),
      });
      return null;
    }
    this.refuseIfSwitchedOff(ctx, gate);
    try {
      await ctx.host.act(action, step.id);
    } catch (error) {
      if (!(error instanceof ScreenHostError)) throw error;
      return this.afterFailedSend(ctx, step, action, error, approval ?? undefined);
    }
    return this.sent(ctx, step, action, approval ?? undefined);
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

  /** The action reached the host: record it, and audit a write in the same transaction. */
  private async sent(
    ctx: StepContext,
    step: Step,
    action: Action,
    approval?: Approval,
  ): Promise<Action | null> {
    const { run } = ctx;
    const outcome: StepOutcome = approval ? 'sent_after_approval' : 'sent';
    const done = { outcome, endedAt: new Date() };
    if (!isWrite(step, approval)) {
      // A read has no audit event: one statement records it.
      return (await this.steps.move(step, 'sending', 'done', done)) ? action : null;
    }
    const recorded = await this.dataSource.transaction(async (manager) => {
      // Whoever records the send first audits it; a second recorder (a takeover) does not.
      if (!(await this.steps.move(step, 'sending', 'done', done, { manager }))) return false;
      await this.audit.record(
        {
          tenant: run.tenant,
          type: 'computer_use.write',
          actor: ENGINE_ACTOR,
          runId: run.id,
          step: step.n,
          details: {
            agent: run.agent,
            action,
            why: step.why,
            idempotency_key: step.id,
            approval_id: approval?.id ?? null,
            approved_by: approval?.decidedBy ?? null,
            resumed_by: approval?.spentBy ?? null,
            without_approval: approval ? undefined : 'require_write_approval is off for this agent',
          },
        },
        manager,
      );
      return true;
    });
    return recorded ? action : null;
  }

  /**
   * The request failed. Whether the host acted is known only by asking it (GET /actions/{key});
   * a host that cannot say leaves the outcome unknown, which a person must check.
   */
  private async afterFailedSend(
    ctx: StepContext,
    step: Step,
    action: Action,
    error: ScreenHostError,
    approval?: Approval,
  ): Promise<Action | null> {
    if (error.kind === 'refused' || error.kind === 'unauthorized' || error.kind === 'config') {
      // The host answered and did not act.
      const refused = `the screen host refused the action: ${error.message}`;
      throw new RunEnds('screen_host_error', refused, {
        outcome: 'refused',
        fields: { error: refused },
      });
    }
    const performed = await this.askHost(ctx, step);
    if (performed === true) return this.sent(ctx, step, action, approval);
    const message = `the screen host did not answer the action (${error.message})`;
    if (performed === false) {
      throw new RunEnds('screen_host_error', `${message}; nothing was sent`, {
        outcome: 'refused',
        fields: { error: `${message}; it says it did not act` },
      });
    }
    const unknown = { outcome: null, fields: { error: `${message}; whether it acted is unknown` } };
    if (isWrite(step, approval)) {
      throw new RunEnds('outcome_unknown', `${message}; check the screen before going on`, unknown);
    }
    throw new RunEnds('screen_host_error', message, unknown);
  }

  /** Did the host perform this step's key? true, false, or null when it cannot tell us. */
  private async askHost(ctx: StepContext, step: Step): Promise<boolean | null> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const { performed } = await ctx.host.lookupAction(step.id);
        return performed === 'unknown' ? null : performed;
      } catch (error) {
        if (!(error instanceof ScreenHostError)) throw error;
        if (error.kind === 'refused' || error.kind === 'bad_answer') return null;
        await pause(ctx, 200 * 2 ** attempt);
      }
    }
    return null;
  }

  /** A screenshot, or the screen host's failure as the run's end (it does not reject for it). */
  private freshScreenshot(ctx: StepContext): Promise<Screenshot | RunEnds> {
    return ctx.host.screenshot().catch((error: unknown) => {
      if (error instanceof ScreenHostError) return hostFailure(error);
      throw error;
    });
  }

  /** Why the screen is no longer the one the approver saw, or null when it still is. */
  private async staleness(
    ctx: StepContext,
    approval: Approval,
    shot: Promise<Screenshot | RunEnds> = this.freshScreenshot(ctx),
  ): Promise<string | null> {
    const fresh = await shot;
    if (fresh instanceof RunEnds) throw fresh;
    // Equal PNG bytes (the same SHA-256) are the same pixels: no need to load the held PNG.
    if (fresh.pngSha256 === approval.screenSha256) return null;
    const held = await this.screens.get(ctx.run.tenant, approval.screenSha256);
    if (!held) return 'the held screenshot is missing';
    const result = compareScreens(held, fresh.png, {
      mask: approval.volatileMask ? VolatileMask.fromBuffer(approval.volatileMask) : undefined,
      ignoreRegions: ctx.agent.ignore_regions,
      regionSpace: { width: fresh.width, height: fresh.height },
    });
    return result.same ? null : result.why;
  }

  /** Why the screen is no longer the one an unapproved write was decided on, or null. */
  private async changedSince(ctx: StepContext, step: Step): Promise<string | null> {
    const held = step.screenSha256
      ? await this.screens.get(ctx.run.tenant, step.screenSha256)
      : null;
    if (!held) return 'the step has no screenshot to compare with';
    const fresh = await ctx.host.screenshot();
    const result = compareScreens(held, fresh.png, {
      ignoreRegions: ctx.agent.ignore_regions,
      regionSpace: { width: fresh.width, height: fresh.height },
    });
    return result.same ? null : result.why;
  }

  /**
   * Fault injection for tests: with TEST_CRASH_AT set (accepted only with NODE_ENV=test), the
   * worker dies at that point of sending a write, as kill -9 would.
   */
  private fault(point: 'before-send' | 'after-send'): void {
    if (this.config.TEST_CRASH_AT === point) process.kill(process.pid, 'SIGKILL');
  }
}
