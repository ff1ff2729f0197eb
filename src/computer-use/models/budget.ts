import type { ModelPlannerConfig } from '../settings/agent-config';

/**
 * Budgets (docs/models.md): tokens and cost per run, tokens per agent per day. Pure: the totals come
 * from PostgreSQL (UsageService), shared by every worker. Usage a provider did not report stays
 * unknown, never zero; a budget that unknown usage could have broken cannot be kept, and says so.
 */

export interface Usage {
  /** Every input token, whether the provider read it from its prompt cache or not. */
  input_tokens: number | null;
  output_tokens: number | null;
  /**
   * Of `input_tokens`, those read from the provider's prompt cache; absent or 0 when it said
   * nothing of a cache (billed at the full input price, so a cost is never understated).
   */
  cache_read_tokens?: number | null;
  /** Of `input_tokens`, those written to the prompt cache (Anthropic bills them above the input price). */
  cache_write_tokens?: number | null;
}

/** Anthropic's prompt-cache prices as multiples of the input price (5-minute cache). */
export const ANTHROPIC_CACHE_READ = 0.1;
export const ANTHROPIC_CACHE_WRITE = 1.25;

export type Prices = Pick<
  ModelPlannerConfig,
  | 'provider'
  | 'price_per_mtok_in'
  | 'price_per_mtok_out'
  | 'price_per_mtok_cache_read'
  | 'price_per_mtok_cache_write'
>;

/**
 * USD per million cached tokens read and written: as configured, else for Anthropic its fixed
 * multiples of the input price. A read of another provider without a configured price is priced
 * as uncached input: no provider bills a cache read above its input price, so the cost is an upper
 * bound and a cost cap still holds (OpenAI's cached rate differs by model; configure it to see the
 * lower cost). A cache write of another provider without a price is unknown.
 */
export function cachePrices(prices: Prices): { read: number | null; write: number | null } {
  const derived = prices.provider === 'anthropic' && prices.price_per_mtok_in !== null;
  return {
    read:
      prices.price_per_mtok_cache_read ??
      (derived ? prices.price_per_mtok_in! * ANTHROPIC_CACHE_READ : prices.price_per_mtok_in),
    write:
      prices.price_per_mtok_cache_write ??
      (derived ? prices.price_per_mtok_in! * ANTHROPIC_CACHE_WRITE : null),
  };
}

export interface UsageTotals {
  /** Known tokens only. */
  input_tokens: number;
  output_tokens: number;
  /** Known cost only (calls whose cost is unknown add nothing here: see `unknown_cost_calls`). */
  cost_usd: number;
  calls: number;
  /** Calls whose provider answered without usage. */
  unknown_usage_calls: number;
  /** Calls whose cost is unknown: unknown usage, or no price configured. */
  unknown_cost_calls: number;
}

export const NO_USAGE: Readonly<UsageTotals> = Object.freeze({
  input_tokens: 0,
  output_tokens: 0,
  cost_usd: 0,
  calls: 0,
  unknown_usage_calls: 0,
  unknown_cost_calls: 0,
});

/** Both token counts known. */
export function usageKnown(usage: Usage): boolean {
  return usage.input_tokens !== null && usage.output_tokens !== null;
}

/**
 * USD of one call, or null when its usage or a price it needs is unknown: input tokens not cached
 * at the input price, cached ones at the cache prices (`cachePrices`), output at the output price.
 */
export function costOf(usage: Usage, prices: Prices): number | null {
  if (!usageKnown(usage)) return null;
  if (prices.price_per_mtok_in === null || prices.price_per_mtok_out === null) return null;
  const read = usage.cache_read_tokens ?? 0;
  const write = usage.cache_write_tokens ?? 0;
  const uncached = usage.input_tokens! - read - write;
  if (uncached < 0) return null;
  const cache = cachePrices(prices);
  if ((read > 0 && cache.read === null) || (write > 0 && cache.write === null)) return null;
  return (
    (uncached * prices.price_per_mtok_in +
      (read > 0 ? read * cache.read! : 0) +
      (write > 0 ? write * cache.write! : 0) +
      usage.output_tokens! * prices.price_per_mtok_out) /
    1_000_000
  );
}

/** Adds two usages of one step: unknown if either is. */
export function addUsage(a: Usage, b: Usage): Usage {
  const add = (x: number | null | undefined, y: number | null | undefined) =>
    x === null || y === null ? null : (x ?? 0) + (y ?? 0);
  return {
    input_tokens: add(a.input_tokens, b.input_tokens),
    output_tokens: add(a.output_tokens, b.output_tokens),
    cache_read_tokens: add(a.cache_read_tokens, b.cache_read_tokens),
    cache_write_tokens: add(a.cache_write_tokens, b.cache_write_tokens),
  };
}

/**
 * Why the next call may not be made, or null. Checked before every call, so a run stops at the
 * first call past its budget; the call that crossed the line was already paid for and is used.
 */
export function budgetProblem(
  config: Pick<
    ModelPlannerConfig,
    'max_tokens_per_run' | 'max_tokens_per_day' | 'max_cost_usd_per_run'
  >,
  run: UsageTotals,
  day: UsageTotals,
): string | null {
  if (config.max_tokens_per_run !== null) {
    const cap = config.max_tokens_per_run;
    if (run.unknown_usage_calls > 0) {
      return `the run's token budget (${cap}) cannot be kept: ${run.unknown_usage_calls} model answer(s) came without usage, so the run's tokens are unknown`;
    }
    const used = run.input_tokens + run.output_tokens;
    if (used >= cap) return `the run used ${used} tokens of its budget of ${cap}`;
  }
  if (config.max_tokens_per_day !== null) {
    const cap = config.max_tokens_per_day;
    if (day.unknown_usage_calls > 0) {
      return `the agent's daily token budget (${cap}) cannot be kept: ${day.unknown_usage_calls} model answer(s) today came without usage`;
    }
    const used = day.input_tokens + day.output_tokens;
    if (used >= cap)
      return `the agent used ${used} tokens today (UTC) of its daily budget of ${cap}`;
  }
  if (config.max_cost_usd_per_run !== null) {
    const cap = config.max_cost_usd_per_run;
    if (run.unknown_cost_calls > 0) {
      return `the run's cost budget (${cap} USD) cannot be kept: the cost of ${run.unknown_cost_calls} model call(s) is unknown`;
    }
    if (run.cost_usd >= cap) {
      return `the run cost ${run.cost_usd.toFixed(4)} USD of its budget of ${cap} USD`;
    }
  }
  return null;
}
