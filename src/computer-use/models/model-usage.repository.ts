import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ModelCall } from './model-call.entity';

/** Sums of answered calls, as PostgreSQL gives them (counts may arrive as strings). */
export interface TotalsRow {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  unknown_usage_calls: number;
  unknown_cost_calls: number;
}

/** One answered call, added to its agent's day. */
export interface DayUsage {
  tenant: string;
  agent: string;
  day: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  unknownUsage: boolean;
  unknownCost: boolean;
}

/** The model_calls (transcripts) and model_usage_days (an agent's day, a counter row) tables. */
@Injectable()
export class ModelUsageRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async runTotals(runId: string): Promise<TotalsRow | undefined> {
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
    return rows[0];
  }

  async dayTotals(tenant: string, agent: string, day: string): Promise<TotalsRow | undefined> {
    const rows = await this.dataSource.query<TotalsRow[]>(
      `SELECT calls, input_tokens::float8 AS input_tokens, output_tokens::float8 AS output_tokens,
              cost_usd, unknown_usage_calls, unknown_cost_calls
         FROM model_usage_days WHERE tenant = $1 AND agent = $2 AND day = $3`,
      [tenant, agent, day],
    );
    return rows[0];
  }

  /** The next call number of a step. */
  async nextSeq(manager: EntityManager, runId: string, n: number): Promise<number> {
    const rows = await manager.query<Array<{ seq: number }>>(
      `SELECT coalesce(max(seq), 0) + 1 AS seq FROM model_calls WHERE run_id = $1 AND n = $2`,
      [runId, n],
    );
    return Number(rows[0]?.seq ?? 1);
  }

  /** A step's calls, in the order they were made. */
  callsOfStep(tenant: string, runId: string, n: number): Promise<ModelCall[]> {
    return this.dataSource.getRepository(ModelCall).find({
      where: { runId, n, tenant },
      order: { seq: 'ASC' },
    });
  }

  saveCall(manager: EntityManager, fields: Partial<ModelCall>): Promise<ModelCall> {
    return manager.save(manager.create(ModelCall, fields));
  }

  async addToDay(manager: EntityManager, usage: DayUsage): Promise<void> {
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
        usage.tenant,
        usage.agent,
        usage.day,
        usage.inputTokens,
        usage.outputTokens,
        usage.costUsd,
        usage.unknownUsage ? 1 : 0,
        usage.unknownCost ? 1 : 0,
      ],
    );
  }
}
