import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface LastRunRow {
  agent: string;
  id: string;
  status: string;
  end_reason: string | null;
  ended_at: Date | null;
}

/** Runs started in a window, those of them that ended, and those that completed. */
export interface RunCounts {
  runs: number;
  ended: number;
  completed: number;
}

export interface RunCountsRow {
  agent: string;
  d7: RunCounts;
  d30: RunCounts;
}

export interface ApprovalLatencyRow {
  agent: string;
  decided: number;
  median_seconds: number | null;
}

/**
 * The statements behind the inventory (`GET /api/admin/inventory`): one per question, each bounded
 * to one tenant, the agents asked about and a window, and answering one row per agent.
 */
@Injectable()
export class InventoryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Each agent's newest run (by when it was started), if it has one. */
  async lastRuns(tenant: string, agents: readonly string[]): Promise<LastRunRow[]> {
    return this.dataSource.query(
      `SELECT a.agent, r.id, r.status, r.end_reason, r.ended_at
         FROM unnest($2::text[]) AS a(agent)
         CROSS JOIN LATERAL (
           SELECT id, status, end_reason, ended_at FROM runs
            WHERE tenant = $1 AND agent = a.agent
            ORDER BY created_at DESC, id DESC LIMIT 1) r`,
      [tenant, agents],
    );
  }

  /** Runs started in the last 7 and 30 days per agent: how many, how many ended, how many completed. */
  async runCounts(tenant: string, agents: readonly string[]): Promise<RunCountsRow[]> {
    const rows: Array<Record<string, string>> = await this.dataSource.query(
      `SELECT agent,
              count(*) FILTER (WHERE created_at >= now() - interval '7 days') AS runs_7,
              count(*) FILTER (WHERE created_at >= now() - interval '7 days'
                                 AND ended_at IS NOT NULL) AS ended_7,
              count(*) FILTER (WHERE created_at >= now() - interval '7 days'
                                 AND status = 'completed') AS completed_7,
              count(*) AS runs_30,
              count(*) FILTER (WHERE ended_at IS NOT NULL) AS ended_30,
              count(*) FILTER (WHERE status = 'completed') AS completed_30
         FROM runs
        WHERE tenant = $1 AND agent = ANY($2::text[])
          AND created_at >= now() - interval '30 days'
        GROUP BY agent`,
      [tenant, agents],
    );
    return rows.map((r) => ({
      agent: r.agent,
      d7: { runs: Number(r.runs_7), ended: Number(r.ended_7), completed: Number(r.completed_7) },
      d30: {
        runs: Number(r.runs_30),
        ended: Number(r.ended_30),
        completed: Number(r.completed_30),
      },
    }));
  }

  /**
   * The median time from a write being held to a person deciding it, over approvals decided in the
   * last 30 days (expired ones left out: nobody decided). The median is computed by PostgreSQL so
   * no latencies leave the database.
   */
  async approvalLatency(tenant: string, agents: readonly string[]): Promise<ApprovalLatencyRow[]> {
    const rows: Array<{ agent: string; decided: string; median_seconds: number | null }> =
      await this.dataSource.query(
        `SELECT agent, count(*) AS decided,
                percentile_cont(0.5) WITHIN GROUP (
                  ORDER BY extract(epoch FROM decided_at - created_at))::float8 AS median_seconds
           FROM approvals
          WHERE tenant = $1 AND agent = ANY($2::text[])
            AND status IN ('approved', 'rejected', 'spent')
            AND decided_at >= now() - interval '30 days'
          GROUP BY agent`,
        [tenant, agents],
      );
    return rows.map((r) => ({
      agent: r.agent,
      decided: Number(r.decided),
      median_seconds: r.median_seconds === null ? null : Number(r.median_seconds),
    }));
  }
}
