import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Caller } from '../../auth/caller';
import { invalid } from '../../common/domain-error';
import { ApprovalViewsRepository } from './approval-views.repository';
import { DecisionRecordsRepository } from './decision-records.repository';

/** What oversight needs of the decided approval. */
export interface DecidedApproval {
  id: string;
  tenant: string;
  agent: string;
  changes: ReadonlyArray<{ kind?: string }> | null;
}

/**
 * Records each decision for oversight (docs/approver-guide.md), in the decision's transaction:
 * who, where, approve or reject, and, when it was made from a page view of the decider's own
 * (`view_id`), how long after the page opened and whether its change list had come into view.
 */
@Injectable()
export class DecisionOversight {
  constructor(
    private readonly views: ApprovalViewsRepository,
    private readonly records: DecisionRecordsRepository,
  ) {}

  async record(
    manager: EntityManager,
    d: {
      caller: Caller;
      approval: DecidedApproval;
      decision: 'approved' | 'rejected';
      via: string;
      decidedAt: Date;
      viewId?: string;
      test?: boolean;
    },
  ): Promise<void> {
    const { caller, approval } = d;
    let view = null;
    if (d.viewId !== undefined) {
      const row = await this.views.ofViewer(
        manager,
        approval.tenant,
        approval.id,
        d.viewId,
        caller.subject,
      );
      if (!row) throw invalid(`view_id ${d.viewId} is no view of yours of approval ${approval.id}`);
      view = { id: row.id, openedAt: row.opened_at, changesSeenAt: row.changes_seen_at };
    }
    await this.records.record(manager, {
      approvalId: approval.id,
      tenant: approval.tenant,
      agent: approval.agent,
      decider: caller.subject,
      via: d.via,
      decision: d.decision,
      decidedAt: d.decidedAt,
      view,
      changesListed: (approval.changes ?? []).some((c) => c.kind !== 'navigation'),
      test: d.test === true,
    });
  }
}
