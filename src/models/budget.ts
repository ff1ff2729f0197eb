import type { ModelPlannerConfig } from '../computer-use/settings/agent-config';

/**
 * Budgets (DESIGN §8): tokens and cost per run, tokens per agent per day. Pure: the totals come
 * from PostgreSQL (UsageService), shared by every worker. Usage a provider did not report stays
 * unknown, never zero; a budget that unknown usage could have broken cannot be kept, and says so.
 */

export interface Usage {
  input_tokens: number | null;
  output_tokens: number | null;
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

/** USD of one call, or null when its usage or a price is unknown. */
export function costOf(
  usage: Usage,
  prices: Pick<ModelPlannerConfig, 'price_per_mtok_in' | 'price_per_mtok_out'>,
): number | null {
  if (!usageKnown(usage)) return null;
  if (prices.price_per_mtok_in === null || prices.price_per_mtok_out === null) return null;
  return (
    (usage.input_tokens! * prices.price_per_mtok_in +
      usage.output_tokens! * prices.price_per_mtok_out) /
    1_000_000
  );
}

/** Adds two usages of one step: unknown if either is. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input_tokens:
      a.input_tokens === null || b.input_tokens === null ? null : a.input_tokens + b.input_tokens,
    output_tokens:
      a.output_tokens === null || b.output_tokens === null
        ? null
        : a.output_tokens + b.output_tokens,
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
