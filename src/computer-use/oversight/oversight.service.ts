import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { decidersAtHold } from '../approvals/deciders';
import { type TestApproval, TestApprovalsRepository } from '../approvals/test-approvals.repository';
import { AuditService } from '../../audit/audit.service';
import type { Caller } from '../../auth/caller';
import { invalid, notFound } from '../../common/domain-error';
import { parseAction } from '../actions';
import { SettingsService } from '../settings/settings.service';
import { AppConfig } from '../../config/app-config';
import { SEED_TEST_EXPIRY_S, type SeedTestDto } from './dto/seed-test.dto';
import { type ApprovalViewRow, ApprovalViewsRepository } from './approval-views.repository';
import { type DecisionTotals, DecisionRecordsRepository } from './decision-records.repository';
import { flagOf } from './oversight-flags';

export interface ApprovalPageView {
  id: string;
  approval_id: string;
  opened_at: string;
  changes_seen_at: string | null;
}

/** A seeded test as the report shows it: `caught` rejected, `missed` approved. */
export interface TestOutcome {
  id: string;
  agent: string;
  goal: string;
  seeded_by: string;
  created_at: string;
  expires_at: string;
  outcome: 'waiting' | 'caught' | 'missed' | 'expired';
  decided_by: string | null;
  decided_at: string | null;
  decided_via: string | null;
}

export interface OversightReport {
  settings: { flag_after_decisions: number; flag_median_seconds: number };
  since: string;
  approvers: DecisionTotals[];
  flagged: Array<{
    approver: string;
    decisions: number;
    median_seconds: number | null;
    why: string;
  }>;
  /** The latest 100 seeded tests, newest first. */
  tests: TestOutcome[];
}

/**
 * Oversight (docs/approver-guide.md): the console reports each opening of an approval's page and
 * when its change list came into view; decisions are recorded with them (DecisionOversight); an
 * admin or an auditor reads the totals per approver and agent and who is flagged.
 */
@Injectable()
export class OversightService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly approvals: ApprovalsRepository,
    private readonly tests: TestApprovalsRepository,
    private readonly views: ApprovalViewsRepository,
    private readonly records: DecisionRecordsRepository,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {}

  /** An opening of the approval's page by the caller. */
  async openView(caller: Caller, approvalId: string): Promise<ApprovalPageView> {
    if (
      !(await this.approvals.findInTenant(caller.tenant, approvalId)) &&
      !(await this.tests.findInTenant(caller.tenant, approvalId))
    ) {
      throw notFound(`no approval ${approvalId}`);
    }
    return pageView(await this.views.open(caller.tenant, approvalId, caller.subject));
  }

  /** The change list of the caller's view came into view (the first time counts). */
  async changesSeen(caller: Caller, approvalId: string, viewId: string): Promise<ApprovalPageView> {
    const row = await this.views.changesSeen(caller.tenant, approvalId, viewId, caller.subject);
    if (!row) throw notFound(`no view ${viewId} of yours of approval ${approvalId}`);
    return pageView(row);
  }

  async report(caller: Caller, days: number): Promise<OversightReport> {
    const since = new Date(Date.now() - days * 86_400_000);
    const settings = {
      decisions: this.config.OVERSIGHT_FLAG_DECISIONS,
      medianSeconds: this.config.OVERSIGHT_FLAG_MEDIAN_SECONDS,
    };
    const latest = await this.records.latest(caller.tenant, settings.decisions);
    return {
      settings: {
        flag_after_decisions: settings.decisions,
        flag_median_seconds: settings.medianSeconds,
      },
      since: since.toISOString(),
      approvers: await this.records.totals(caller.tenant, since),
      flagged: latest.flatMap((l) => {
        const why = flagOf(l, settings);
        return why
          ? [
              {
                approver: l.approver,
                decisions: l.decisions,
                median_seconds: l.median_seconds,
                why,
              },
            ]
          : [];
      }),
      tests: (await this.tests.latest(caller.tenant, 100)).map(outcomeOf),
    };
  }

  /**
   * Seeds a test: a known-bad change that waits in the inbox of whoever may decide the agent's
   * writes now (its `approvers`; anyone with agents.approve when it names none or is no agent of
   * the config). It is no held step of any run, so nothing can send it. Audited
   * `oversight.test_seeded`, where auditors see it and approvers, who do not read the log, do not.
   */
  async seed(caller: Caller, dto: SeedTestDto): Promise<TestOutcome> {
    const parsed = parseAction(dto.action);
    if (!parsed.ok) throw invalid(`action: ${parsed.reason}`);
    const agent = await this.settings.agent(caller.tenant, dto.agent);
    const changes = dto.changes?.length
      ? dto.changes.map((c) => ({
          field: c.field,
          before: c.before,
          after: c.after,
          read_back: c.after,
          read_back_check: 'same' as const,
          step: 1,
          rect: null,
        }))
      : null;
    return this.dataSource.transaction(async (manager) => {
      const t = await this.tests.create(manager, {
        tenant: caller.tenant,
        agent: dto.agent,
        system: dto.system ?? agent?.system ?? null,
        goal: dto.goal,
        action: parsed.action,
        why: dto.why,
        changes,
        deciders: decidersAtHold(agent?.approvers ?? []),
        seededBy: caller.subject,
        expiresInSeconds: dto.expires_in_seconds ?? SEED_TEST_EXPIRY_S,
      });
      await this.audit.record(
        {
          tenant: caller.tenant,
          type: 'oversight.test_seeded',
          actor: caller.subject,
          details: { approval_id: t.id, agent: t.agent, action: t.action, why: t.why, changes },
        },
        manager,
      );
      return outcomeOf(t);
    });
  }
}

function outcomeOf(t: TestApproval): TestOutcome {
  const outcome =
    t.status === 'rejected'
      ? 'caught'
      : t.status === 'approved'
        ? 'missed'
        : t.expiresAt.getTime() <= Date.now()
          ? 'expired'
          : 'waiting';
  return {
    id: t.id,
    agent: t.agent,
    goal: t.goal,
    seeded_by: t.seededBy,
    created_at: t.createdAt.toISOString(),
    expires_at: t.expiresAt.toISOString(),
    outcome,
    decided_by: t.decidedBy,
    decided_at: t.decidedAt?.toISOString() ?? null,
    decided_via: t.decidedVia,
  };
}

function pageView(row: ApprovalViewRow): ApprovalPageView {
  return {
    id: row.id,
    approval_id: row.approval_id,
    opened_at: new Date(row.opened_at).toISOString(),
    changes_seen_at: row.changes_seen_at ? new Date(row.changes_seen_at).toISOString() : null,
  };
}
