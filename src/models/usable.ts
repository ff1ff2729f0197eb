import type { ModelPlannerConfig } from '../computer-use/settings/agent-config';
import { secretFromEnv } from '../config/app-config';

/**
 * Why a run planned by this model cannot start, or null: checked when a run starts, so that a
 * missing key is a clear refusal and not a failed first step.
 */
export function reasonNotUsable(model: ModelPlannerConfig): string | null {
  if (secretFromEnv(model.api_key_env) === undefined) {
    return `the model API key variable ${model.api_key_env} is not set on the Warden host (${model.provider} ${model.model})`;
  }
  if (
    model.max_cost_usd_per_run !== null &&
    (model.price_per_mtok_in === null || model.price_per_mtok_out === null)
  ) {
    return 'max_cost_usd_per_run needs price_per_mtok_in and price_per_mtok_out: without prices the cost is unknown and the budget cannot be kept';
  }
  return null;
}
