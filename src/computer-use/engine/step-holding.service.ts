import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { decidersAtHold } from '../approvals/deciders';
import { AuditService } from '../../audit/audit.service';
import { Notifications } from '../../notifications/notifications.service';
import { approvalFacts, runFacts } from '../../notifications/notify-facts';
import { StepQueue } from '../../queue/step-queue';
import type { Action, Change } from '../actions';
import type { RailRecord } from '../rail/screen-rail';
import type { ObservedScreen, ProviderSafetyCheck } from '../planner-contract/planner';
import { RunLifecycle } from '../runs/run-lifecycle.service';
import type { Step } from '../runs/step.entity';
import { StepFields, StepsRepository } from '../runs/steps.repository';
import { ScreensService } from '../screens/screens.service';
import { type AgentConfig, withDefaults } from '../settings/agent-config';
import { SettingsRepository } from '../settings/settings.repository';
import {
  approvalRedaction,
  approvalTimes,
  flaggedRail,
  heldDetails,
  redactionWhy,
} from './holding-decisions';
import { WARDEN_ACTOR } from '../../audit/warden-actor';
import { ScreenSampling } from './screen-sampling.service';
import type { StepContext } from './step-context';

/** A write the step holds for a person: what it is, why, and on which screen. */
export interface HeldWrite {
  action: Action;
  why: string;
  screen: ObservedScreen;
  /** The step's decision as it is recorded. */
  fields: StepFields;
  safetyChecks: ProviderSafetyCheck[];
  /** A held commit's change list under commit-point approval; null: none. */
  changes: Change[] | null;
  /** The injection rail's record of the step's screen (a model's step); null: not looked at. */
  rail?: RailRecord | null;
  /** What the write lands on lies under the agent's `redact_regions`. */
  targetRedacted?: boolean;
}

/**
 * Holding a write (docs/security.md): the step says `held`, its approval is created (with who may
 * decide it, docs/security.md approver groups), the run waits and the audit trail says so, in one
 * transaction; the approval's expiry, reminder and escalation are queued and the agent's channels
 * are told (once committed, queued only). Then, with the step's lease given back, the screen's
 * volatile pixels are learnt while the approval is open (docs/security.md).
 */
@Injectable()
export class StepHolding {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sampling: ScreenSampling,
    private readonly screens: ScreensService,
    private readonly steps: StepsRepository,
    private readonly approvals: ApprovalsRepository,
    private readonly lifecycle: RunLifecycle,
    private readonly audit: AuditService,
    private readonly queue: StepQueue,
    private readonly notifications: Notifications,
    private readonly settings: SettingsRepository,
  ) {}

  async hold(ctx: StepContext, step: Step, held: HeldWrite): Promise<void> {
    const { run, agent } = ctx;
    const { action, screen, fields, safetyChecks, changes } = held;
    const rail = held.rail ?? null;
    // The approver sees the screen with the regions black: the approval says how much, and where
    // the write or its changes lie there, in its why too.
    const redaction = approvalRedaction(
      agent.redact_regions,
      screen,
      held.targetRedacted === true,
      changes,
    );
    const hidden = redactionWhy(redaction);
    const why = hidden ? `${held.why}; ${hidden}` : held.why;
    // The approver must be able to see the screen: a PNG whose data does not inflate ends the run.
    await this.screens.checkData(screen);
    const approval = await this.dataSource.transaction(async (manager) => {
      // Who may decide, and when the write is recalled and handed on, are the agent's config in
      // force as the write is held (docs/security.md): read after the tenant's governance lock (shared),
      // so that no config change commits between the read and the approval. The step's own copy,
      // read before the planner thought, may be older.
      await this.settings.lockTenantShared(manager, run.tenant);
      const inForce = (await this.approverFields(manager, run.tenant, run.agent)) ?? agent;
      const { expiresAt, remindAt, escalateAt } = approvalTimes(
        agent.approval_timeout_seconds,
        inForce,
        Date.now(),
      );
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
        // Learnt after the hold, while a person reads it (afterRelease below).
        volatileMask: null,
        volatilePixels: 0,
        maskState: 'learning',
        requestedBy: run.createdBy,
        requestedByToken: run.createdByToken,
        expiresAt,
        safetyChecks: safetyChecks.length > 0 ? safetyChecks : null,
        changes,
        rail: flaggedRail(rail),
        redaction,
        deciders: decidersAtHold(inForce.approvers),
        escalateTo: escalateAt ? [...inForce.escalate_to] : null,
        remindAt,
        escalateAt,
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
          actor: WARDEN_ACTOR,
          runId: run.id,
          step: step.n,
          details: {
            ...heldDetails({
              agent: run.agent,
              approval: saved,
              action,
              why,
              screenSha256: screen.sha256,
              screenPixelSha256: fields.screenPixelSha256,
              expiresAt,
              safetyChecks,
              changes,
              rail,
              redaction,
            }),
            // Which of the model's answers it came in, where it held several actions.
            ...(fields.batch ? { batch: fields.batch } : {}),
          },
        },
        manager,
      );
      return saved;
    });
    if (!approval) return;
    // The screen's volatile pixels are learnt once the step's lease is given back: an approval
    // decided meanwhile is resumed by another job, which waits for the mask before comparing.
    (ctx.afterRelease ??= []).push(() =>
      this.sampling.learnForApproval(ctx, step, approval.id, screen.png),
    );
    await this.queue.expire(approval.id, approval.expiresAt);
    if (approval.remindAt) await this.queue.remind(approval.id, approval.remindAt);
    if (approval.escalateAt) await this.queue.escalate(approval.id, approval.escalateAt);
    await this.notifications.announce(run.tenant, run.agent, {
      kind: 'held',
      run: runFacts(run),
      approval: approvalFacts(approval),
    });
  }

  /** The agent's approver fields in the config in force (null: the config no longer names it). */
  private async approverFields(
    manager: EntityManager,
    tenant: string,
    name: string,
  ): Promise<Pick<
    AgentConfig,
    'approvers' | 'escalate_to' | 'escalate_after_seconds' | 'remind_after_seconds'
  > | null> {
    const stored = await this.settings.agentInForce(manager, tenant, name);
    if (!stored) return null;
    return withDefaults({ enabled: true, agents: { [name]: stored as unknown as AgentConfig } })
      .agents[name];
  }
}
