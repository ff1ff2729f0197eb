import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Usage, type UsageTotals, usageKnown } from './budget';
import { ModelCall } from './model-call.entity';

/** The UTC day a call counts towards. */
export function utcDay(at: Date = new Date()): string {
  return at.toISOString().slice(0, 10);
}

export interface CallRecord {
  tenant: string;
  runId: string;
  agent: string;
  n: number;
  provider: string;
  model: string;
  request: Record<string, unknown>;
  answer: Record<string, unknown> | null;
  error: Record<string, unknown> | null;
  attempts: Array<Record<string, unknown>>;
  usage: Usage;
  costUsd: number | null;
  latencyMs: number;
}

interface TotalsRow {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  unknown_usage_calls: number;
  unknown_cost_calls: number;
}

function totals(row: TotalsRow | undefined): UsageTotals {
  return {
    calls: Number(row?.calls ?? 0),
    input_tokens: Number(row?.input_tokens ?? 0),
    output_tokens: Number(row?.output_tokens ?? 0),
    cost_usd: Number(row?.cost_usd ?? 0),
    unknown_usage_calls: Number(row?.unknown_usage_calls ?? 0),
    unknown_cost_calls: Number(row?.unknown_cost_calls ?? 0),
  };
}

/**
 * Model usage in PostgreSQL, shared by every worker: a run's totals are the sum of its answered
 * calls; an agent's day is a counter row added to in the same transaction as the call's record.
 */
@Injectable()
export class UsageService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async runTotals(runId: string): Promise<UsageTotals> {
    const rows = await this.dataSource.query<TotalsRow[]>(
      `SELECT count(*)::int AS calls,
              coalesce(sum(input_tokens), 0)::float8 AS input_tokens,
              coalesce(sum(output_tokens), 0)::float8 AS output_tokens,
              coalesce(sum(cost_usd), 0)::float8 AS cost_usd,
              count(*) FILTER (WHERE input_tokens IS NULL OR output_tokens IS NULL)::int AS unknown_usage_calls,
              count(*) FILTER (WHERE cost_usd IS NULL)::int AS unknown_cost_calls
         FROM model_calls WHERE run_id = $1 AND answer IS NOT NULL`,
      [runId],
    );
    return totals(rows[0]);
  }

  async dayTotals(tenant: string, agent: string, day = utcDay()): Promise<UsageTotals> {
    const rows = await this.dataSource.query<TotalsRow[]>(
      `SELECT calls, input_tokens::float8 AS input_tokens, output_tokens::float8 AS output_tokens,
              cost_usd, unknown_usage_calls, unknown_cost_calls
         FROM model_usage_days WHERE tenant = $1 AND agent = $2 AND day = $3`,
      [tenant, agent, day],
    );
    return totals(rows[0]);
  }

  /** The call's transcript row and, for an answered call, its usage on the agent's day: together. */
  async record(call: CallRecord): Promise<ModelCall> {
    return this.dataSource.transaction(async (manager) => {
      const seq = await manager.query<Array<{ seq: number }>>(
        `SELECT coalesce(max(seq), 0) + 1 AS seq FROM model_calls WHERE run_id = $1 AND n = $2`,
        [call.runId, call.n],
      );
      const saved = await manager.save(
        manager.create(ModelCall, {
          tenant: call.tenant,
          runId: call.runId,
          agent: call.agent,
          n: call.n,
          seq: Number(seq[0]?.seq ?? 1),
          provider: call.provider,
          model: call.model,
          request: call.request,
          answer: call.answer,
          error: call.error,
          attempts: call.attempts,
          inputTokens: call.usage.input_tokens,
          outputTokens: call.usage.output_tokens,
          costUsd: call.costUsd,
          latencyMs: Math.round(call.latencyMs),
        }),
      );
      if (call.answer !== null) {
        const known = usageKnown(call.usage);
        await manager.query(
          `INSERT INTO model_usage_days AS d
                  (tenant, agent, day, input_tokens, output_tokens, cost_usd, calls,
                   unknown_usage_calls, unknown_cost_calls, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, now())
           ON CONFLICT (tenant, agent, day) DO UPDATE SET
             input_tokens = d.input_tokens + EXCLUDED.input_tokens,
             output_tokens = d.output_tokens + EXCLUDED.output_tokens,
             cost_usd = d.cost_usd + EXCLUDED.cost_usd,
             calls = d.calls + 1,
             unknown_usage_calls = d.unknown_usage_calls + EXCLUDED.unknown_usage_calls,
             unknown_cost_calls = d.unknown_cost_calls + EXCLUDED.unknown_cost_calls,
             updated_at = now()`,
          [
            call.tenant,
            call.agent,
            utcDay(saved.createdAt),
            call.usage.input_tokens ?? 0,
            call.usage.output_tokens ?? 0,
            call.costUsd ?? 0,
            known ? 0 : 1,
            call.costUsd === null ? 1 : 0,
          ],
        );
      }
      return saved;
    });
  }
}
