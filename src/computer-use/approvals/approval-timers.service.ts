import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { WARDEN_ACTOR } from '../../audit/warden-actor';
import { StepQueue } from '../../queue/step-queue';
import { ApprovalNotice, ApprovalNotices } from './approval-notices.service';
import type { Approval } from './approval.entity';
import { ApprovalsRepository } from './approvals.repository';
import { decidersAfterEscalation } from './deciders';

/**
 * A pending write's reminder and escalation (docs/security.md): each is a delayed job queued when the
 * write is held (and re-armed by the reconciler). Each happens at most once: in a transaction on
 * the approval, locked and still pending, the time it happened is recorded only where none is, so
 * a job that runs twice does nothing the second time. Neither happens once someone decided.
 */
@Injectable()
export class ApprovalTimers {
  private readonly logger = new Logger(ApprovalTimers.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly approvals: ApprovalsRepository,
    private readonly audit: AuditService,
    private readonly queue: StepQueue,
    private readonly notices: ApprovalNotices,
  ) {}

  /** Audits `approval.reminded` and records `reminded_at`. */
  async remind(approvalId: string): Promise<void> {
    const seen = await this.approvals.findById(approvalId);
    if (!seen?.remindAt || seen.status !== 'pending' || seen.remindedAt) return;
    if (seen.remindAt.getTime() > Date.now()) return this.queue.remind(seen.id, seen.remindAt);
    const done = await this.dataSource.transaction(async (manager) => {
      const approval = await this.approvals.lockById(manager, approvalId);
      if (!approval || approval.status !== 'pending' || approval.remindedAt) return null;
      const at = new Date();
      if (!(await this.approvals.remind(manager, approval.id, at))) return null;
      const notice = noticeOf(approval, approval.remindAt!, approval.deciders);
      await this.audit.record(
        {
          tenant: approval.tenant,
          type: 'approval.reminded',
          actor: WARDEN_ACTOR,
          runId: approval.runId,
          step: approval.step,
          details: {
            approval_id: approval.id,
            agent: approval.agent,
            after_seconds: notice.afterSeconds,
            may_decide_now: approval.deciders,
          },
        },
        manager,
      );
      return notice;
    });
    if (done) await this.tell(() => this.notices.reminded(done));
  }

  /**
   * Hands the write to `escalate_to` as well: records `escalated_at` and the new deciders, and
   * audits `approval.escalated` {approval_id, agent, to, after_seconds}.
   */
  async escalate(approvalId: string): Promise<void> {
    const seen = await this.approvals.findById(approvalId);
    if (!seen?.escalateAt || seen.status !== 'pending' || seen.escalatedAt) return;
    if (seen.escalateAt.getTime() > Date.now()) {
      return this.queue.escalate(seen.id, seen.escalateAt);
    }
    const done = await this.dataSource.transaction(async (manager) => {
      const approval = await this.approvals.lockById(manager, approvalId);
      if (!approval || approval.status !== 'pending' || approval.escalatedAt) return null;
      const to = approval.escalateTo ?? [];
      const deciders = decidersAfterEscalation(approval.deciders, to);
      if (!(await this.approvals.escalate(manager, approval.id, deciders, new Date()))) {
        return null;
      }
      const notice = { ...noticeOf(approval, approval.escalateAt!, deciders), to };
      await this.audit.record(
        {
          tenant: approval.tenant,
          type: 'approval.escalated',
          actor: WARDEN_ACTOR,
          runId: approval.runId,
          step: approval.step,
          details: {
            approval_id: approval.id,
            agent: approval.agent,
            to,
            after_seconds: notice.afterSeconds,
          },
        },
        manager,
      );
      return notice;
    });
    if (done) await this.tell(() => this.notices.escalated(done));
  }

  /** A notice that fails is logged: the reminder or escalation itself stands. */
  private async tell(notify: () => Promise<void>): Promise<void> {
    try {
      await notify();
    } catch (error) {
      this.logger.warn({ err: error }, 'could not tell anyone about a held write');
    }
  }
}

function noticeOf(approval: Approval, due: Date, deciders: string[] | null): ApprovalNotice {
  return {
    tenant: approval.tenant,
    approvalId: approval.id,
    agent: approval.agent,
    runId: approval.runId,
    step: approval.step,
    afterSeconds: Math.round((due.getTime() - approval.createdAt.getTime()) / 1000),
    deciders,
  };
}
