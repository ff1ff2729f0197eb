import { MODEL_PLANNER_DEFAULTS, type ModelPlannerConfig } from '../settings/agent-config';
import type { AppConfig } from '../../config/app-config';
import { modelPlanners } from '../../config/model-planners';

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
 * The default model's planner id in the catalog (docs/models.md): `DEFAULT_MODEL_ID`, or one made from
 * the provider and the model's name, its trailing numbers as a dotted version
 * (`anthropic` + `claude-sonnet-5-5` → `anthropic-claude-sonnet-5.5-normal`); a name with no
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

/** A model planner of the deployment, as the catalog lists it and the engine plans with it. */
export interface DeploymentModel {
  id: string;
  model: ModelPlannerConfig;
  /** The default model (`DEFAULT_MODEL_*`): public; the others are as `MODEL_PLANNERS` says. */
  isDefault: boolean;
  public: boolean;
  tags: string[];
  programs: string[];
}

/** The deployment's model planners: its default model first, then `MODEL_PLANNERS`. */
export function deploymentModels(
  config: Parameters<typeof defaultModelId>[0] & Pick<AppConfig, 'MODEL_PLANNERS'>,
): DeploymentModel[] {
  const models: DeploymentModel[] = [];
  const fallback = defaultModel(config);
  const id = defaultModelId(config);
  if (fallback && id) {
    models.push({ id, model: fallback, isDefault: true, public: true, tags: [], programs: [] });
  }
  for (const p of modelPlanners(config)) {
    if (models.some((m) => m.id === p.id)) continue;
    models.push({
      id: p.id,
      model: {
        ...MODEL_PLANNER_DEFAULTS,
        provider: p.provider,
        model: p.model,
        api_key_env: p.api_key_env,
        base_url: p.base_url,
      },
      isDefault: false,
      public: p.public,
      tags: p.tags,
      programs: p.programs,
    });
  }
  return models;
}
