import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Usage, type UsageTotals, usageKnown } from './budget';
import type { ModelCall } from './model-call.entity';
import { ModelUsageRepository, TotalsRow } from './model-usage.repository';

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
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly usage: ModelUsageRepository,
  ) {}

  async runTotals(runId: string): Promise<UsageTotals> {
    return totals(await this.usage.runTotals(runId));
  }

  async dayTotals(tenant: string, agent: string, day = utcDay()): Promise<UsageTotals> {
    return totals(await this.usage.dayTotals(tenant, agent, day));
  }

  /** The call's transcript row and, for an answered call, its usage on the agent's day: together. */
  async record(call: CallRecord): Promise<ModelCall> {
    return this.dataSource.transaction(async (manager) => {
      const saved = await this.usage.saveCall(manager, {
        tenant: call.tenant,
        runId: call.runId,
        agent: call.agent,
        n: call.n,
        seq: await this.usage.nextSeq(manager, call.runId, call.n),
        provider: call.provider,
        model: call.model,
        request: call.request,
        answer: call.answer,
        error: call.error,
        attempts: call.attempts,
        inputTokens: call.usage.input_tokens,
        outputTokens: call.usage.output_tokens,
        // Unknown input: unknown cache figures too; known input without a cache figure: none cached.
        cacheReadTokens:
          call.usage.input_tokens === null ? null : (call.usage.cache_read_tokens ?? 0),
        cacheWriteTokens:
          call.usage.input_tokens === null ? null : (call.usage.cache_write_tokens ?? 0),
        costUsd: call.costUsd,
        latencyMs: Math.round(call.latencyMs),
      });
      if (call.answer !== null) {
        await this.usage.addToDay(manager, {
          tenant: call.tenant,
          agent: call.agent,
          day: utcDay(saved.createdAt),
          inputTokens: call.usage.input_tokens ?? 0,
          outputTokens: call.usage.output_tokens ?? 0,
          costUsd: call.costUsd ?? 0,
          unknownUsage: !usageKnown(call.usage),
          unknownCost: call.costUsd === null,
        });
      }
      return saved;
    });
  }
}
