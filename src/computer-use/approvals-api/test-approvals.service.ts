import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { testApprovalView, type ApprovalView } from '../approvals/approval.view';
import { mayDecide, notADecider } from '../approvals/deciders';
import { type TestApproval, TestApprovalsRepository } from '../approvals/test-approvals.repository';
import { AuditService } from '../../audit/audit.service';
import type { Caller } from '../../auth/caller';
import { conflict, forbidden, notFound } from '../../common/domain-error';
import { AppConfig } from '../../config/app-config';
import { DecisionOversight } from '../oversight/decision-oversight.service';
import { type DecisionInput, type ForYou, viaOf } from './decision-input';

/**
 * Decisions on seeded tests (docs/approver-guide.md, oversight), by the rules of a held write's:
 * only its deciders, four-eyes (the admin who seeded it is its starter), one decision, before it
 * expires. A decision is recorded for oversight and audited, and does nothing else: a test has no
 * run to resume or end, and nothing to send.
 */
@Injectable()
export class TestApprovalDecisions {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tests: TestApprovalsRepository,
    private readonly oversight: DecisionOversight,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {}

  findInTenant(tenant: string, id: string): Promise<TestApproval | null> {
    return this.tests.findInTenant(tenant, id);
  }

  async views(tenant: string, ids: readonly string[]): Promise<Map<string, ApprovalView>> {
    return new Map((await this.tests.byIds(tenant, ids)).map((t) => [t.id, testApprovalView(t)]));
  }

  /** What the caller may do with it, as for a held write. */
  forYou(caller: Caller, t: TestApproval): ForYou {
    const closed = this.closed(caller, t);
    if (closed) return { approve: closed, reject: closed };
    return { approve: fourEyes(caller, t), reject: null };
  }

  async decide(
    caller: Caller,
    id: string,
    status: 'approved' | 'rejected',
    input: DecisionInput,
  ): Promise<ApprovalView> {
    return this.dataSource.transaction(async (manager) => {
      const t = await this.tests.lockInTenant(manager, caller.tenant, id);
      if (!t) throw notFound(`no approval ${id}`);
      if (!mayDecide(caller, t.deciders, this.config.OIDC_ISSUER_URL)) {
        throw forbidden(
          notADecider(caller, t.agent, t.deciders!, null, this.config.OIDC_ISSUER_URL),
        );
      }
      if (t.status !== 'pending') throw conflict(`approval ${id} is already ${t.status}`);
      if (t.expiresAt.getTime() <= Date.now()) {
        throw conflict(`approval ${id} expired at ${t.expiresAt.toISOString()}`);
      }
      if (input.screenSha256 !== undefined) {
        throw conflict(`approval ${id} is about no screen you were shown`);
      }
      const stops = status === 'approved' ? fourEyes(caller, t) : null;
      if (stops) throw forbidden(`four-eyes: ${stops}`);
      const via = input.via ?? viaOf(caller);
      Object.assign(t, {
        status,
        decidedBy: caller.subject,
        decidedAt: new Date(),
        decidedVia: via,
        comment: input.comment ?? null,
      });
      if (!(await this.tests.decide(manager, t))) {
        throw conflict(`approval ${id} is no longer pending`);
      }
      await this.oversight.record(manager, {
        caller,
        approval: t,
        decision: status,
        via,
        decidedAt: t.decidedAt!,
        viewId: input.viewId,
        test: true,
      });
      await this.audit.record(
        {
          tenant: caller.tenant,
          type: 'approval.decided',
          actor: caller.subject,
          details: {
            approval_id: t.id,
            kind: 'oversight.test',
            decision: status,
            via,
            comment: t.comment,
            screen_sha256: null,
          },
        },
        manager,
      );
      return testApprovalView(t);
    });
  }

  private closed(caller: Caller, t: TestApproval): string | null {
    const trusted = this.config.OIDC_ISSUER_URL;
    if (t.status !== 'pending') return `it is already ${t.status}`;
    if (t.expiresAt.getTime() <= Date.now()) return `it expired at ${t.expiresAt.toISOString()}`;
    if (!mayDecide(caller, t.deciders, trusted)) {
      return notADecider(caller, t.agent, t.deciders!, null, trusted);
    }
    return null;
  }
}

/** The admin who seeded it stands where a run's starter does: they may not approve it. */
function fourEyes(caller: Caller, t: TestApproval): string | null {
  return caller.subject === t.seededBy
    ? `${caller.subject} started this run, so someone else must approve its writes`
    : null;
}
