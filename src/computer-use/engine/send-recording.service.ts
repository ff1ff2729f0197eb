import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Approval } from '../approvals/approval.entity';
import { AuditService } from '../../audit/audit.service';
import type { Action } from '../actions';
import { isWrite } from '../runs/step-phase';
import type { Step, StepOutcome } from '../runs/step.entity';
import { StepsRepository } from '../runs/steps.repository';
import { ScreenHostError } from '../host-client/screen-host.client';
import { RunEnds, writeOutcomeUnknown } from './run-ends';
import { WARDEN_ACTOR } from '../../audit/warden-actor';
import type { StepContext } from './step-context';
import { pause } from './step-timing';
import { writeDetails } from './write-audit';

/**
 * What became of a request to act (docs/operations.md): a send the host confirmed is recorded, and a write
 * audited in the same transaction, by whoever records it first; a request whose outcome is unknown
 * is asked about (`GET /actions/{key}`), never simply repeated; what the host cannot say stays
 * unknown, for a person to check.
 */
@Injectable()
export class SendRecording {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly steps: StepsRepository,
    private readonly audit: AuditService,
  ) {}

  /** The action reached the host: record it (and audit a write). The action, or null when a takeover recorded it first. */
  async sent(
    ctx: StepContext,
    step: Step,
    action: Action,
    approval?: Approval,
  ): Promise<Action | null> {
    const { run } = ctx;
    const outcome: StepOutcome = approval ? 'sent_after_approval' : step.staged ? 'staged' : 'sent';
    const done = { outcome, endedAt: new Date() };
    if (!isWrite(step, approval)) {
      // A read has no audit event: one statement records it, without waiting for the disk. Lost
      // in a crash of PostgreSQL, the step is `sending` again and is recorded as any send whose
      // record is missing: the host is asked whether it performed the step's key.
      return (await this.steps.move(step, 'sending', 'done', done, { durable: false }))
        ? action
        : null;
    }
    const recorded = await this.dataSource.transaction(async (manager) => {
      // Whoever records the send first audits it; a second recorder (a takeover) does not.
      if (!(await this.steps.move(step, 'sending', 'done', done, { manager }))) return false;
      await this.audit.record(
        {
          tenant: run.tenant,
          type: 'computer_use.write',
          actor: WARDEN_ACTOR,
          runId: run.id,
          step: step.n,
          details: { agent: run.agent, ...writeDetails(step, action, approval) },
        },
        manager,
      );
      return true;
    });
    return recorded ? action : null;
  }

  /**
   * The request failed. The host refusing it (4xx) did not act; for anything else (no answer, a
   * 5xx: it tried and failed, perhaps half-way) only the host can say whether it acted, and a host
   * that cannot say leaves the outcome unknown: a write's run fails `outcome_unknown`.
   */
  async afterFailedSend(
    ctx: StepContext,
    step: Step,
    action: Action,
    error: ScreenHostError,
    approval?: Approval,
  ): Promise<Action | null> {
    if (error.kind === 'refused' || error.kind === 'unauthorized' || error.kind === 'config') {
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
    const unknown = `${message}; whether it acted is unknown`;
    if (isWrite(step, approval)) {
      throw writeOutcomeUnknown(step, action, approval, {
        summary: `${message}; check the screen before going on`,
        error: unknown,
      });
    }
    throw new RunEnds('screen_host_error', message, { outcome: null, fields: { error: unknown } });
  }

  /** Did the host perform this step's key? true, false, or null when it cannot tell us. */
  async askHost(ctx: StepContext, step: Step): Promise<boolean | null> {
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
}
