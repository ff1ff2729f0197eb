import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** A decision as oversight keeps it, written in the decision's own transaction. */
export interface DecisionRecord {
  approvalId: string;
  tenant: string;
  agent: string;
  decider: string;
  via: string;
  decision: 'approved' | 'rejected';
  decidedAt: Date;
  /** The page view it was decided from: null when it was not (the API, a chat). */
  view: { id: string; openedAt: Date; changesSeenAt: Date | null } | null;
  /** Whether the write had a change list (a held commit's stored changes). */
  changesListed: boolean;
  /** A decision on a seeded test: left out of the totals and the flag, reported apart. */
  test: boolean;
}

/** Per approver and agent, over a window. */
export interface DecisionTotals {
  approver: string;
  agent: string;
  decisions: number;
  approved: number;
  rejected: number;
  /** Decisions made from the approval page, whose time from opening it is known. */
  timed: number;
  median_seconds: number | null;
  /** Approvals of writes with a change list that the page never brought into view. */
  approved_changes_unseen: number;
  /** … and approvals of such writes made away from the page (API, chat): unknown. */
  approved_changes_unknown: number;
  in_chat: number;
}

/** A person's latest decisions (at most `latest`), for the flag. */
export interface LatestDecisions {
  approver: string;
  decisions: number;
  rejected: number;
  timed: number;
  median_seconds: number | null;
}

/** The SQL of decision records (docs/approver-guide.md, oversight). */
@Injectable()
export class DecisionRecordsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async record(manager: EntityManager, r: DecisionRecord): Promise<void> {
    await manager.query(
      `INSERT INTO decision_records (approval_id, tenant, agent, decider, via, decision, decided_at,
                                     view_id, opened_at, changes_listed, changes_seen, test)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        r.approvalId,
        r.tenant,
        r.agent,
        r.decider,
        r.via,
        r.decision,
        r.decidedAt,
        r.view?.id ?? null,
        r.view?.openedAt ?? null,
        r.changesListed,
        r.view ? r.view.changesSeenAt !== null && r.view.changesSeenAt <= r.decidedAt : null,
        r.test,
      ],
    );
  }

  async totals(tenant: string, since: Date): Promise<DecisionTotals[]> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT decider AS approver, agent,
              count(*) AS decisions,
              count(*) FILTER (WHERE decision = 'approved') AS approved,
              count(*) FILTER (WHERE decision = 'rejected') AS rejected,
              count(opened_at) AS timed,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM decided_at - opened_at))
                FILTER (WHERE opened_at IS NOT NULL) AS median_seconds,
              count(*) FILTER (WHERE decision = 'approved' AND changes_listed
                               AND changes_seen = false) AS approved_changes_unseen,
              count(*) FILTER (WHERE decision = 'approved' AND changes_listed
                               AND changes_seen IS NULL) AS approved_changes_unknown,
              count(*) FILTER (WHERE via IN ('slack', 'teams')) AS in_chat
         FROM decision_records
        WHERE tenant = $1 AND decided_at >= $2 AND NOT test
        GROUP BY decider, agent
        ORDER BY decider, agent`,
      [tenant, since],
    );
    return rows.map((row) => ({
      approver: String(row.approver),
      agent: String(row.agent),
      decisions: Number(row.decisions),
      approved: Number(row.approved),
      rejected: Number(row.rejected),
      timed: Number(row.timed),
      median_seconds: seconds(row.median_seconds),
      approved_changes_unseen: Number(row.approved_changes_unseen),
      approved_changes_unknown: Number(row.approved_changes_unknown),
      in_chat: Number(row.in_chat),
    }));
  }

  /** Each approver's latest `latest` decisions in the tenant, whenever they were made. */
  async latest(tenant: string, latest: number): Promise<LatestDecisions[]> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `WITH ranked AS (
         SELECT *, row_number() OVER (PARTITION BY decider ORDER BY decided_at DESC) AS n
           FROM decision_records WHERE tenant = $1 AND NOT test)
       SELECT decider AS approver, count(*) AS decisions,
              count(*) FILTER (WHERE decision = 'rejected') AS rejected,
              count(opened_at) AS timed,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM decided_at - opened_at))
                FILTER (WHERE opened_at IS NOT NULL) AS median_seconds
         FROM ranked WHERE n <= $2
        GROUP BY decider ORDER BY decider`,
      [tenant, latest],
    );
    return rows.map((row) => ({
      approver: String(row.approver),
      decisions: Number(row.decisions),
      rejected: Number(row.rejected),
      timed: Number(row.timed),
      median_seconds: seconds(row.median_seconds),
    }));
  }
}

/** Seconds to a tenth; null stays null. */
function seconds(value: unknown): number | null {
  return value === null || value === undefined ? null : Math.round(Number(value) * 10) / 10;
}
