import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import type { Caller } from '../../auth/caller';
import { AppConfig } from '../../config/app-config';
import { conflict, forbidden, notFound } from '../../common/domain-error';
import { Run } from '../runs/run.entity';
import { RunLifecycle } from '../runs/run-lifecycle.service';
import { RunsRepository } from '../runs/runs.repository';
import { StepsRepository } from '../runs/steps.repository';
import { Notifications } from '../../notifications/notifications.service';
import { approvalFacts, runFacts } from '../../notifications/notify-facts';
import { DecisionOversight } from '../oversight/decision-oversight.service';
import { Approval } from '../approvals/approval.entity';
import { approvalView, ApprovalView, testApprovalView } from '../approvals/approval.view';
import { mayDecide, namesOf, notADecider } from '../approvals/deciders';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { type DecisionInput, type ForYou, viaOf } from './decision-input';
import type { ListApprovalsDto } from './dto/list-approvals.dto';
import { TestApprovalDecisions } from './test-approvals.service';

/**
 * Four-eyes (on by default): the person who started the run, or the token that started it, cannot
 * approve its writes. Why, when it stops the caller; null when it does not.
 */
export function fourEyesStops(caller: Caller, run: Run): string | null {
  if (run.agentConfig.four_eyes === false) return null;
  if (caller.subject !== run.createdBy && caller.tokenId !== run.createdByToken) return null;
  return `${caller.subject} started this run, so someone else must approve its writes`;
}

/** When a waiting action is still to be handed to `escalate_to`, and to whom. */
function escalationOf(approval: Approval): { to: string[]; at: Date } | null {
  return approval.escalateTo && approval.escalateAt && !approval.escalatedAt
    ? { to: approval.escalateTo, at: approval.escalateAt }
    : null;
}

/**
 * Waiting actions and the decisions on them. Approving only allows a resume; it sends nothing.
 * Rejecting ends the run without acting. An admin's seeded tests stand among them and are decided
 * by the same rules (TestApprovalDecisions), with no run behind them.
 */
@Injectable()
export class ApprovalsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly approvals: ApprovalsRepository,
    private readonly runs: RunsRepository,
    private readonly steps: StepsRepository,
    private readonly audit: AuditService,
    private readonly lifecycle: RunLifecycle,
    private readonly notifications: Notifications,
    private readonly oversight: DecisionOversight,
    private readonly tests: TestApprovalDecisions,
    private readonly config: AppConfig,
  ) {}

  /** The tenant's waiting actions the caller may decide, oldest first (newest last). */
  async list(
    caller: Caller,
    query: ListApprovalsDto,
  ): Promise<{ items: ApprovalView[]; next_cursor: string | null }> {
    // The inbox shows each person only what they may decide (docs/security.md, approver groups).
    const page = await this.approvals.page(
      caller.tenant,
      query.status,
      namesOf(caller, this.config.OIDC_ISSUER_URL),
      query.limit,
      query.cursor,
    );
    const tests = await this.tests.views(
      caller.tenant,
      page.items.flatMap((item) => ('testId' in item ? [item.testId] : [])),
    );
    return {
      items: page.items.flatMap((item) => {
        if ('write' in item) return [approvalView(item.write)];
        const test = tests.get(item.testId);
        return test ? [test] : [];
      }),
      next_cursor: page.next_cursor,
    };
  }

  /**
   * One waiting action, with what the caller may do with it (`for_you`): approve and reject, each
   * null when the caller may, or why not in plain words, by the same rules as the decision itself.
   */
  async get(caller: Caller, id: string): Promise<ApprovalView & { for_you: ForYou }> {
    const approval = await this.approvals.findInTenant(caller.tenant, id);
    if (!approval) {
      const test = await this.tests.findInTenant(caller.tenant, id);
      if (!test) throw notFound(`no approval ${id}`);
      return { ...testApprovalView(test), for_you: this.tests.forYou(caller, test) };
    }
    return { ...approvalView(approval), for_you: await this.forYou(caller, approval) };
  }

  /** Reads the run (for four-eyes) only for an approval the caller could still decide. */
  private async forYou(caller: Caller, approval: Approval): Promise<ForYou> {
    const trusted = this.config.OIDC_ISSUER_URL;
    const closed =
      approval.status !== 'pending'
        ? `it is already ${approval.status}`
        : approval.expiresAt.getTime() <= Date.now()
          ? `it expired at ${approval.expiresAt.toISOString()}`
          : !mayDecide(caller, approval.deciders, trusted)
            ? notADecider(
                caller,
                approval.agent,
                approval.deciders!,
                escalationOf(approval),
                trusted,
              )
            : null;
    if (closed) return { approve: closed, reject: closed };
    const run = await this.runs.findById(approval.runId);
    if (!run) return { approve: 'its run is gone', reject: 'its run is gone' };
    return { approve: fourEyesStops(caller, run), reject: null };
  }

  /**
   * Approves a held write. Only its deciders may (docs/security.md, approver groups; `pending`), and
   * four-eyes (on by default) still holds for them: the person who started the run, or the token
   * that started it, cannot approve its writes.
   */
  async approve(caller: Caller, id: string, input: DecisionInput = {}): Promise<ApprovalView> {
    if (await this.isTest(caller, id)) return this.tests.decide(caller, id, 'approved', input);
    const { approval, run } = await this.dataSource.transaction(async (manager) => {
      const { approval, run } = await this.pending(manager, caller, id, input);
      const fourEyes = fourEyesStops(caller, run);
      if (fourEyes) throw forbidden(`four-eyes: ${fourEyes}`);
      await this.decide(manager, caller, approval, 'approved', input);
      return { approval, run };
    });
    await this.announceDecision(caller, approval, run, input.comment);
    return approvalView(approval);
  }

  /** Rejects a held write: nothing is sent and the run stops `rejected`. */
  async reject(caller: Caller, id: string, input: DecisionInput = {}): Promise<ApprovalView> {
    if (await this.isTest(caller, id)) return this.tests.decide(caller, id, 'rejected', input);
    const comment = input.comment;
    const result = await this.dataSource.transaction(async (manager) => {
      const { approval, run } = await this.pending(manager, caller, id, input);
      await this.decide(manager, caller, approval, 'rejected', input);
      await this.steps.moveById(
        approval.stepId,
        'held',
        'done',
        { outcome: 'rejected', endedAt: new Date() },
        manager,
      );
      await this.audit.record(
        {
          tenant: caller.tenant,
          type: 'computer_use.write.refused',
          actor: caller.subject,
          runId: run.id,
          step: approval.step,
          details: {
            agent: run.agent,
            approval_id: approval.id,
            action: approval.action,
            comment: comment ?? null,
          },
        },
        manager,
      );
      const ended = await this.lifecycle.end(
        run.id,
        'rejected',
        `${caller.subject} rejected the write of step ${approval.step}`,
        caller.subject,
        {
          step: approval.step,
          manager,
        },
      );
      return { approval, run, ended };
    });
    await this.announceDecision(caller, result.approval, result.run, comment);
    if (result.ended) await this.lifecycle.afterEnd(result.ended);
    else await this.lifecycle.promote(result.run.leaseKey);
    return approvalView(result.approval);
  }

  /** Whether `id` names a seeded test of the caller's tenant rather than a held write. */
  private async isTest(caller: Caller, id: string): Promise<boolean> {
    return (
      !(await this.approvals.findInTenant(caller.tenant, id)) &&
      (await this.tests.findInTenant(caller.tenant, id)) !== null
    );
  }

  /** The agent's channels hear of the decision, once it is committed. */
  private async announceDecision(
    caller: Caller,
    approval: Approval,
    run: Run,
    comment: string | undefined,
  ): Promise<void> {
    await this.notifications.announce(run.tenant, run.agent, {
      kind: 'decided',
      run: runFacts(run),
      approval: approvalFacts(approval),
      decision: approval.status === 'rejected' ? 'rejected' : 'approved',
      by: caller.subject,
      via: approval.decidedVia ?? undefined,
      comment: comment ?? null,
    });
  }

  private async pending(
    manager: EntityManager,
    caller: Caller,
    id: string,
    input: DecisionInput,
  ): Promise<{ approval: Approval; run: Run }> {
    const approval = await this.approvals.lockInTenant(manager, caller.tenant, id);
    if (!approval) throw notFound(`no approval ${id}`);
    const trusted = this.config.OIDC_ISSUER_URL;
    if (!mayDecide(caller, approval.deciders, trusted)) {
      const escalation = escalationOf(approval);
      throw forbidden(notADecider(caller, approval.agent, approval.deciders!, escalation, trusted));
    }
    if (approval.status !== 'pending')
      throw conflict(`approval ${id} is already ${approval.status}`);
    if (approval.expiresAt.getTime() <= Date.now()) {
      throw conflict(`approval ${id} expired at ${approval.expiresAt.toISOString()}`);
    }
    if (input.screenSha256 !== undefined && input.screenSha256 !== approval.screenSha256) {
      throw conflict(
        `approval ${id} is about screen ${approval.screenSha256.slice(0, 12)}…, not the screen ${input.screenSha256.slice(0, 12)}… you were shown`,
      );
    }
    const refused = input.check?.(approval);
    if (refused) throw forbidden(refused);
    const run = await this.runs.findById(approval.runId, manager);
    if (!run) throw notFound(`no run ${approval.runId}`);
    return { approval, run };
  }

  private async decide(
    manager: EntityManager,
    caller: Caller,
    approval: Approval,
    status: 'approved' | 'rejected',
    input: DecisionInput,
  ): Promise<void> {
    const comment = input.comment;
    const via = input.via ?? viaOf(caller);
    Object.assign(approval, {
      status,
      decidedBy: caller.subject,
      decidedAt: new Date(),
      decidedVia: via,
      comment: comment ?? null,
    });
    await this.approvals.decide(manager, approval, approval);
    await this.oversight.record(manager, {
      caller,
      approval,
      decision: status,
      via,
      decidedAt: approval.decidedAt!,
      viewId: input.viewId,
    });
    await this.audit.record(
      {
        tenant: caller.tenant,
        type: 'approval.decided',
        actor: caller.subject,
        runId: approval.runId,
        step: approval.step,
        details: {
          approval_id: approval.id,
          kind: approval.kind,
          decision: status,
          via,
          comment: comment ?? null,
          // The screen the person decided on (its SHA-256): the one the write may be sent onto.
          screen_sha256: approval.screenSha256,
        },
      },
      manager,
    );
  }
}
