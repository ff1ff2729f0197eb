import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { StoredHistogramRow, StoredValue } from './stored-series';

export type AgentLabels = 'tenant' | 'agent';

export interface StepCountRow {
  tenant: string;
  agent: string;
  classification: string;
  outcome: string;
  steps: number;
}

export interface ModelUsageRow {
  tenant: string;
  agent: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

/**
 * The statements behind the operations metrics (docs/operations.md, Metrics), read at scrape time.
 * Each is one aggregate over a table of record, grouped by tenant and agent (and a small fixed set
 * such as end reasons), so its answer is bounded by the agents there are, never by the runs.
 * Totals come from PostgreSQL rather than from counters in one process: the worker, which sees
 * the steps, serves no HTTP, and every API process then answers the same, restart-proof totals.
 */
@Injectable()
export class OperationsMetricsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs started (every run row: `POST /api/computer-use/runs` answered 201). */
  async runsStarted(): Promise<Array<StoredValue<AgentLabels>>> {
    const rows: Array<{ tenant: string; agent: string; runs: string }> =
      await this.dataSource.query(
        `SELECT tenant, agent, count(*) AS runs FROM runs GROUP BY tenant, agent`,
      );
    return rows.map((r) => ({
      labels: { tenant: r.tenant, agent: r.agent },
      value: Number(r.runs),
    }));
  }

  /** Runs ended, by end reason (the end status follows from it, docs/step-flow.md). */
  async runsEnded(): Promise<Array<StoredValue<AgentLabels | 'end_reason'>>> {
    const rows: Array<{ tenant: string; agent: string; end_reason: string; runs: string }> =
      await this.dataSource.query(
        `SELECT tenant, agent, end_reason, count(*) AS runs FROM runs
          WHERE ended_at IS NOT NULL AND end_reason IS NOT NULL
          GROUP BY tenant, agent, end_reason`,
      );
    return rows.map((r) => ({
      labels: { tenant: r.tenant, agent: r.agent, end_reason: r.end_reason },
      value: Number(r.runs),
    }));
  }

  /** Steps of model planners the injection rail judged, by verdict (issue 16 §2). */
  async railVerdicts(): Promise<Array<StoredValue<AgentLabels | 'verdict'>>> {
    const rows: Array<{ tenant: string; agent: string; verdict: string; steps: string }> =
      await this.dataSource.query(
        `SELECT s.tenant, r.agent, s.rail->>'verdict' AS verdict, count(*) AS steps
           FROM steps s JOIN runs r ON r.id = s.run_id
          WHERE s.rail IS NOT NULL
          GROUP BY s.tenant, r.agent, s.rail->>'verdict'`,
      );
    return rows.map((r) => ({
      labels: { tenant: r.tenant, agent: r.agent, verdict: r.verdict },
      value: Number(r.steps),
    }));
  }

  /**
   * Notification deliveries not yet settled (pending), and the age in seconds of the oldest, by
   * tenant: the channels' lag (docs/security.md).
   */
  async pendingDeliveries(): Promise<Array<{ tenant: string; pending: number; oldest: number }>> {
    const rows: Array<{ tenant: string; pending: string; oldest: number }> =
      await this.dataSource.query(
        `SELECT tenant, count(*) AS pending,
                extract(epoch FROM now() - min(created_at))::float8 AS oldest
           FROM deliveries WHERE status = 'pending' GROUP BY tenant`,
      );
    return rows.map((r) => ({ tenant: r.tenant, pending: Number(r.pending), oldest: r.oldest }));
  }

  /**
   * Settled steps (phase `done`) by classification and outcome. A step counts once it is settled,
   * so a held write is counted by what became of it and the totals never go down; `none` stands
   * for no classification (the screenshot failed) or no outcome (unknown, or the run ended).
   */
  async settledSteps(): Promise<StepCountRow[]> {
    const rows: Array<Omit<StepCountRow, 'steps'> & { steps: string }> =
      await this.dataSource.query(
        `SELECT s.tenant, r.agent,
                COALESCE(s.classification, 'none') AS classification,
                COALESCE(s.outcome, 'none') AS outcome,
                count(*) AS steps
           FROM steps s JOIN runs r ON r.id = s.run_id
          WHERE s.phase = 'done'
          GROUP BY s.tenant, r.agent, 3, 4`,
      );
    return rows.map((r) => ({ ...r, steps: Number(r.steps) }));
  }

  /** Model calls, tokens and cost, from the agents' daily usage rows (docs/models.md). */
  async modelUsage(): Promise<ModelUsageRow[]> {
    const rows: Array<Record<keyof ModelUsageRow, string>> = await this.dataSource.query(
      `SELECT tenant, agent, sum(calls) AS calls, sum(input_tokens) AS input_tokens,
              sum(output_tokens) AS output_tokens, sum(cost_usd) AS cost_usd
         FROM model_usage_days GROUP BY tenant, agent`,
    );
    return rows.map((r) => ({
      tenant: r.tenant,
      agent: r.agent,
      calls: Number(r.calls),
      input_tokens: Number(r.input_tokens),
      output_tokens: Number(r.output_tokens),
      cost_usd: Number(r.cost_usd),
    }));
  }

  /**
   * Held → decided: from a held write's approval being created to a person approving or rejecting
   * it. Expired approvals are left out (nobody decided; an expiry also overwrites `decided_at`).
   */
  heldToDecided(buckets: readonly number[]): Promise<Array<StoredHistogramRow<AgentLabels>>> {
    return this.histogram(
      buckets,
      `SELECT tenant, agent, extract(epoch FROM decided_at - created_at)::float8 AS s
         FROM approvals
        WHERE status IN ('approved', 'rejected', 'spent') AND decided_at IS NOT NULL`,
    );
  }

  /** Decided → sent: from the approval to the host confirming the approved write. */
  decidedToSent(buckets: readonly number[]): Promise<Array<StoredHistogramRow<AgentLabels>>> {
    return this.histogram(
      buckets,
      `SELECT a.tenant, a.agent, extract(epoch FROM st.ended_at - a.decided_at)::float8 AS s
         FROM approvals a JOIN steps st ON st.id = a.step_id
        WHERE a.status = 'spent' AND st.outcome IN ('sent_after_approval', 'refused_by_application')
          AND a.decided_at IS NOT NULL AND st.ended_at IS NOT NULL`,
    );
  }

  /** Cumulative bucket counts, sum and count of `s` per tenant and agent of `observations`. */
  private async histogram(
    buckets: readonly number[],
    observations: string,
  ): Promise<Array<StoredHistogramRow<AgentLabels>>> {
    const counts = buckets.map((_, i) => `count(*) FILTER (WHERE s <= $${i + 1})`).join(', ');
    const rows: Array<{
      tenant: string;
      agent: string;
      cumulative: string[];
      count: string;
      sum: number;
    }> = await this.dataSource.query(
      `SELECT tenant, agent, ARRAY[${counts}]::bigint[] AS cumulative,
              count(*) AS count, COALESCE(sum(s), 0)::float8 AS sum
         FROM (${observations}) o
        GROUP BY tenant, agent`,
      [...buckets],
    );
    return rows.map((r) => ({
      labels: { tenant: r.tenant, agent: r.agent },
      cumulative: r.cumulative.map(Number),
      count: Number(r.count),
      sum: Number(r.sum),
    }));
  }
}
