import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApprovalsRepository } from '../../approvals/approvals.repository';
import { AuditService } from '../../audit/audit.service';
import { AppConfig } from '../../config/app-config';
import { StepQueue } from '../../queue/step-queue';
import type { Action } from '../actions';
import type { ObservedScreen, ProviderSafetyCheck } from '../planning/planner';
import { RunLifecycle } from '../runs/run-lifecycle.service';
import type { Step } from '../runs/step.entity';
import { StepFields, StepsRepository } from '../runs/steps.repository';
import { decodePng, learnVolatileMask, VolatileMask } from '../screens/pixels';
import { ScreenHostError } from '../screens/screen-host.client';
import { hostFailure } from './run-ends';
import { ENGINE_ACTOR } from './run-ending.service';
import type { StepContext } from './step-context';
import { pause } from './step-timing';

/** At most this share of the screen may be masked as moving by itself (a caret, a clock). */
const MAX_VOLATILE_FRACTION = 0.01;

/** A write the step holds for a person: what it is, why, and on which screen. */
export interface HeldWrite {
  action: Action;
  why: string;
  screen: ObservedScreen;
  /** The step's decision as it is recorded. */
  fields: StepFields;
  safetyChecks: ProviderSafetyCheck[];
}

/**
 * Holding a write (DESIGN §6): the screen's volatile pixels are learnt, then the step says `held`,
 * its approval is created, the run waits and the audit trail says so, in one transaction; the
 * approval's expiry is queued.
 */
@Injectable()
export class StepHolding {
  private readonly logger = new Logger(StepHolding.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly steps: StepsRepository,
    private readonly approvals: ApprovalsRepository,
    private readonly lifecycle: RunLifecycle,
    private readonly audit: AuditService,
    private readonly queue: StepQueue,
  ) {}

  async hold(ctx: StepContext, step: Step, held: HeldWrite): Promise<void> {
    const { run, agent } = ctx;
    const { action, why, screen, fields, safetyChecks } = held;
    const mask = await this.learnMask(ctx);
    const expiresAt = new Date(Date.now() + agent.approval_timeout_seconds * 1000);
    const approval = await this.dataSource.transaction(async (manager) => {
      const moved = await this.steps.decide(
        step,
        'planning',
        'held',
        { ...fields, outcome: 'held' },
        ctx.plannerState,
        manager,
      );
      if (!moved) return null;
      const saved = await this.approvals.create(manager, {
        tenant: run.tenant,
        kind: 'computer_use.write',
        status: 'pending',
        agent: run.agent,
        runId: run.id,
        step: step.n,
        stepId: step.id,
        action,
        why,
        screenSha256: screen.sha256,
        screenPixelSha256: String(fields.screenPixelSha256),
        volatileMask: mask?.toBuffer() ?? null,
        volatilePixels: mask?.size ?? 0,
        requestedBy: run.createdBy,
        requestedByToken: run.createdByToken,
        expiresAt,
        safetyChecks: safetyChecks.length > 0 ? safetyChecks : null,
      });
      const waiting = await this.lifecycle.transition(
        manager,
        run.id,
        'running',
        'awaiting_approval',
        { pendingApproval: saved.id },
      );
      if (!waiting) throw new Error('the run left running while its write was being held');
      await this.audit.record(
        {
          tenant: run.tenant,
          type: 'computer_use.write.held',
          actor: ENGINE_ACTOR,
          runId: run.id,
          step: step.n,
          details: {
            agent: run.agent,
            approval_id: saved.id,
            action,
            why,
            screen_sha256: screen.sha256,
            screen_pixel_sha256: fields.screenPixelSha256,
            volatile_pixels: saved.volatilePixels,
            expires_at: expiresAt.toISOString(),
            ...(safetyChecks.length > 0 ? { safety_checks: safetyChecks } : {}),
          },
        },
        manager,
      );
      return saved;
    });
    if (approval) await this.queue.expire(approval.id, approval.expiresAt);
  }

  /**
   * Samples the screen a few times over about a second and keeps the pixels that changed between
   * samples by themselves (a blinking caret, a clock). The planner's own screenshot is left out on
   * purpose: a real change between planning and holding must stay visible to the resume check.
   */
  private async learnMask(ctx: StepContext): Promise<VolatileMask | null> {
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
    if (mask.size === 0) return null;
    if (mask.size > mask.width * mask.height * MAX_VOLATILE_FRACTION) {
      // A screen that keeps moving over a large area is not "blinking": masking it could hide a
      // real change from the resume check, so nothing is masked and any change will be stale.
      this.logger.warn(
        { run: ctx.run.id, pixels: mask.size },
        'the screen kept moving; no volatile mask',
      );
      return null;
    }
    return mask;
  }
}

function* decodeEach(pngs: Iterable<Buffer>) {
  for (const png of pngs) yield decodePng(png);
}
