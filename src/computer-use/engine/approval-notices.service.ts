import { Injectable, Logger } from '@nestjs/common';

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
 * The one place a reminder or an escalation reaches people (DESIGN §6, notifications). Called
 * once per approval and kind, after the commit. TODO(notifications, issue 15): tell the agent's
 * channels here; until then these only log, and the audit trail (`approval.reminded`,
 * `approval.escalated`) and the console say what happened. Must not throw into the timer job:
 * a failed channel never blocks a run.
 */
@Injectable()
export class ApprovalNotices {
  private readonly logger = new Logger(ApprovalNotices.name);

  reminded(notice: ApprovalNotice): Promise<void> {
    this.logger.log({ ...notice }, 'a held write is still waiting for a decision');
    return Promise.resolve();
  }

  escalated(notice: ApprovalNotice & { to: string[] }): Promise<void> {
    this.logger.log({ ...notice }, 'a held write was escalated');
    return Promise.resolve();
  }
}
