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

const VERSIONED_ID =
  /^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*-(?:\d{4}-\d\d-\d\d|\d+(?:\.\d+)*)-[a-z]+$/;

/**
 * The default model's planner id in the catalog (DESIGN §8): `DEFAULT_MODEL_ID`, or one made from
 * the provider and the model's name, its trailing numbers as a dotted version
 * (`anthropic` + `claude-sonnet-4-5` → `anthropic-claude-sonnet-4.5-normal`); a name with no
 * version at its end gives `<provider>-default-1-normal`. Null when there is no default model.
 */
export function defaultModelId(
  config: Pick<
    AppConfig,
    | 'DEFAULT_MODEL_PROVIDER'
    | 'DEFAULT_MODEL'
    | 'DEFAULT_MODEL_API_KEY_ENV'
    | 'DEFAULT_MODEL_BASE_URL'
    | 'DEFAULT_MODEL_ID'
  >,
): string | null {
  const model = defaultModel(config);
  if (!model) return null;
  if (config.DEFAULT_MODEL_ID) return config.DEFAULT_MODEL_ID;
  const slug = model.model
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const dotted = slug.replace(
    /-(\d+(?:-\d+)*)$/,
    (_all, digits: string) => `-${digits.replace(/-/g, '.')}`,
  );
  const made = `${model.provider}-${dotted}-normal`;
  return VERSIONED_ID.test(made) ? made : `${model.provider}-default-1-normal`;
}
