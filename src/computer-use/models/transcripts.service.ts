import { Injectable } from '@nestjs/common';
import type { Caller } from '../../auth/caller';
import { notFound } from '../../common/domain-error';
import { RunsRepository } from '../runs/runs.repository';
import { StepsRepository } from '../runs/steps.repository';
import type { ModelCall } from './model-call.entity';
import { ModelUsageRepository } from './model-usage.repository';

/** One call of a step's transcript as the API shows it. */
export interface ModelCallView {
  seq: number;
  provider: string;
  model: string;
  /** The request as sent, screenshots replaced by `{screen_sha256, width, height}`. */
  request: Record<string, unknown>;
  answer: Record<string, unknown> | null;
  error: Record<string, unknown> | null;
  attempts: Array<Record<string, unknown>>;
  /** null: unknown (the provider did not say). */
  input_tokens: number | null;
  /** Of `input_tokens`, read from the provider's prompt cache; null: unknown or not recorded. */
  cache_read_tokens: number | null;
  /** Of `input_tokens`, written to the prompt cache (Anthropic); null: unknown or not recorded. */
  cache_write_tokens: number | null;
  /** `input_tokens` neither read from nor written to the cache: billed at the input price. */
  uncached_input_tokens: number | null;
  output_tokens: number | null;
  /** With cached tokens at the cache prices. */
  cost_usd: number | null;
  latency_ms: number;
  created_at: string;
}

export interface TranscriptView {
  run_id: string;
  n: number;
  /** Every call the step made to a model, in order; empty for a step no model planned. */
  calls: ModelCallView[];
}

export function modelCallView(c: ModelCall): ModelCallView {
  return {
    seq: c.seq,
    provider: c.provider,
    model: c.model,
    request: c.request,
    answer: c.answer,
    error: c.error,
    attempts: c.attempts,
    input_tokens: c.inputTokens,
    cache_read_tokens: c.cacheReadTokens,
    cache_write_tokens: c.cacheWriteTokens,
    uncached_input_tokens:
      c.inputTokens === null || c.cacheReadTokens === null || c.cacheWriteTokens === null
        ? null
        : c.inputTokens - c.cacheReadTokens - c.cacheWriteTokens,
    output_tokens: c.outputTokens,
    cost_usd: c.costUsd,
    latency_ms: c.latencyMs,
    created_at: c.createdAt.toISOString(),
  };
}

/** Transcripts (docs/models.md), read in the caller's tenant only: another tenant's run is a 404. */
@Injectable()
export class TranscriptsService {
  constructor(
    private readonly runs: RunsRepository,
    private readonly steps: StepsRepository,
    private readonly usage: ModelUsageRepository,
  ) {}

  async forStep(caller: Caller, runId: string, n: number): Promise<TranscriptView> {
    const run = await this.runs.findInTenant(caller.tenant, runId);
    if (!run) throw notFound(`no run ${runId}`);
    const step = await this.steps.find(runId, n);
    if (!step) throw notFound(`run ${runId} has no step ${n}`);
    const calls = await this.usage.callsOfStep(caller.tenant, runId, n);
    return { run_id: runId, n, calls: calls.map(modelCallView) };
  }
}
