import {
  MODEL_PLANNER_DEFAULTS,
  type ModelPlannerConfig,
} from '../computer-use/settings/agent-config';
import type { AppConfig } from '../config/app-config';

/**
 * The deployment's default model from the environment (`DEFAULT_MODEL_*`, validated in AppConfig),
 * or null when there is none. Budgets and prices have their defaults: no caps, unknown price.
 */
export function defaultModel(
  config: Pick<
    AppConfig,
    | 'DEFAULT_MODEL_PROVIDER'
    | 'DEFAULT_MODEL'
    | 'DEFAULT_MODEL_API_KEY_ENV'
    | 'DEFAULT_MODEL_BASE_URL'
  >,
): ModelPlannerConfig | null {
  if (
    !config.DEFAULT_MODEL_PROVIDER ||
    !config.DEFAULT_MODEL ||
    !config.DEFAULT_MODEL_API_KEY_ENV
  ) {
    return null;
  }
  return {
    ...MODEL_PLANNER_DEFAULTS,
    provider: config.DEFAULT_MODEL_PROVIDER,
    model: config.DEFAULT_MODEL,
    api_key_env: config.DEFAULT_MODEL_API_KEY_ENV,
    base_url: config.DEFAULT_MODEL_BASE_URL ?? null,
  };
}
