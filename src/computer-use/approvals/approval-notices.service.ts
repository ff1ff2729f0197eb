import { Injectable } from '@nestjs/common';
import { Notifications } from '../../notifications/notifications.service';
import { approvalFacts, runFacts } from '../../notifications/notify-facts';
import { ApprovalsRepository } from './approvals.repository';

/** What happened to a pending approval, after the transaction that recorded it committed. */
export interface ApprovalNotice {
  tenant: string;
  approvalId: string;
  agent: string;
  runId: string;
  step: number;
  /** How long after it was held. */
  afterSeconds: number;
  /** Who may decide it now (null: anyone with agents.approve). */
  deciders: string[] | null;
}

/**
 * The one place a reminder or an escalation reaches people (docs/security.md, notifications): the agent's
 * channels are told, through the notifications queue (`Notifications.announce` never throws and
 * only queues). Called once per approval and kind, after the commit.
 */
@Injectable()
export class ApprovalNotices {
  constructor(
    private readonly approvals: ApprovalsRepository,
    private readonly notifications: Notifications,
  ) {}

  async reminded(notice: ApprovalNotice): Promise<void> {
    const facts = await this.facts(notice);
    if (!facts) return;
    await this.notifications.announce(notice.tenant, notice.agent, {
      kind: 'reminder',
      ...facts,
      waiting_seconds: notice.afterSeconds,
    });
  }

  async escalated(notice: ApprovalNotice & { to: string[] }): Promise<void> {
    const facts = await this.facts(notice);
    if (!facts) return;
    await this.notifications.announce(notice.tenant, notice.agent, {
      kind: 'escalated',
      ...facts,
      to: notice.to,
    });
  }

  private async facts(notice: ApprovalNotice) {
    const found = await this.approvals.withRunGoal(notice.approvalId);
    if (!found) return null;
    const { approval, runGoal } = found;
    return {
      run: runFacts({ id: approval.runId, goal: runGoal }),
      approval: approvalFacts(approval),
    };
  }
}
