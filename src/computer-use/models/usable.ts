import type { ModelPlannerConfig } from '../settings/agent-config';

/**
 * Why this model's budget cannot be kept, or null: a cost cap needs prices, since without them
 * the cost is unknown. (Whether its key may be sent is SecretGrants' question, docs/screen-host.md.)
 */
export function priceProblem(model: ModelPlannerConfig): string | null {
  if (
    model.max_cost_usd_per_run !== null &&
    (model.price_per_mtok_in === null || model.price_per_mtok_out === null)
  ) {
    return 'max_cost_usd_per_run needs price_per_mtok_in and price_per_mtok_out: without prices the cost is unknown and the budget cannot be kept';
  }
  return null;
}
