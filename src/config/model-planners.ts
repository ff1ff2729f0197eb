import { unknownModel } from './model-tools';
import { ENV_NAME_PATTERN, MODEL_PROVIDERS, type ModelProvider } from './names';
import { RESERVED_FAMILIES } from './planner-id';

/**
 * The deployment's model planners besides its default model (docs/planners.md "Planners as a catalog"),
 * as the operator sets them in `MODEL_PLANNERS`: a JSON array of
 * `{id, provider, model, api_key_env, base_url?, public?, tags?, programs?}`. Each is in the
 * catalog under its id; its key is the deployment's own (never granted to a tenant), sent only to
 * its endpoint and only for a tenant whose destinations include that endpoint. Pure.
 */
export interface DeploymentModelPlanner {
  id: string;
  provider: ModelProvider;
  model: string;
  api_key_env: string;
  base_url: string | null;
  /** Public to every tenant; false (the default): only by an allow, a tag or a program. */
  public: boolean;
  tags: string[];
  programs: string[];
}

const FIELDS = [
  'id',
  'provider',
  'model',
  'api_key_env',
  'base_url',
  'public',
  'tags',
  'programs',
] as const;
const VERSIONED_ID =
  /^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*-(?:\d{4}-\d\d-\d\d|\d+(?:\.\d+)*)-[a-z]+$/;
const NAME = /^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*$/;
const URL_PATTERN = /^https?:\/\/[^\s/?#@]+[^\s]*$/;
const MAX_PLANNERS = 50;

function names(raw: unknown, where: string): string[] | string {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > 20) return `${where} must be a list of at most 20 names`;
  for (const name of raw) {
    if (typeof name !== 'string' || !NAME.test(name) || name.length > 63) {
      return `${where} must be lower-case words joined by hyphens, not ${JSON.stringify(name)}`;
    }
  }
  return raw as string[];
}

/** The planners, or a problem naming the entry and field at fault. Unset or empty: none. */
export function parseModelPlanners(raw: string | undefined): DeploymentModelPlanner[] | string {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return 'MODEL_PLANNERS must be a JSON array of {id, provider, model, api_key_env, base_url?, public?, tags?, programs?}';
  }
  if (!Array.isArray(parsed) || parsed.length > MAX_PLANNERS) {
    return `MODEL_PLANNERS must be a JSON array of at most ${MAX_PLANNERS} planners`;
  }
  const planners: DeploymentModelPlanner[] = [];
  for (const [i, item] of parsed.entries()) {
    const at = `MODEL_PLANNERS[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return `${at} must be an object`;
    }
    const p = item as Record<string, unknown>;
    const unknown = Object.keys(p).find((k) => !(FIELDS as readonly string[]).includes(k));
    if (unknown) return `${at}.${unknown} is not a field (${FIELDS.join(', ')})`;
    if (typeof p.id !== 'string' || !VERSIONED_ID.test(p.id) || p.id.length > 200) {
      return `${at}.id must be a planner id <family>-<version>-<effort>, like anthropic-claude-opus-4.1-normal`;
    }
    // The families the deployment has itself (its planner kinds, mcp, remote) are not models.
    if (RESERVED_FAMILIES.some((f) => (p.id as string).startsWith(`${f}-`))) {
      return `${at}.id: the families ${RESERVED_FAMILIES.join(', ')} are not models`;
    }
    if (planners.some((q) => q.id === p.id)) return `${at}.id ${p.id} is there twice`;
    if (!MODEL_PROVIDERS.includes(p.provider as ModelProvider)) {
      return `${at}.provider must be one of ${MODEL_PROVIDERS.join(', ')}`;
    }
    if (typeof p.model !== 'string' || p.model.trim() === '' || p.model.length > 200) {
      return `${at}.model must be the model's name`;
    }
    const noTool = unknownModel(p.provider as ModelProvider, p.model);
    if (noTool) return `${at}.model: ${noTool}`;
    if (typeof p.api_key_env !== 'string' || !ENV_NAME_PATTERN.test(p.api_key_env)) {
      return `${at}.api_key_env must name the variable that holds the key (A-Z, 0-9, _)`;
    }
    const baseUrl = p.base_url ?? null;
    if (baseUrl !== null && (typeof baseUrl !== 'string' || !URL_PATTERN.test(baseUrl))) {
      return `${at}.base_url must be an http(s):// URL without credentials`;
    }
    if (p.provider === 'openai-compatible' && baseUrl === null) {
      return `${at}.base_url is required for openai-compatible`;
    }
    if (p.public !== undefined && typeof p.public !== 'boolean') {
      return `${at}.public must be true or false`;
    }
    const tags = names(p.tags, `${at}.tags`);
    if (typeof tags === 'string') return tags;
    const programs = names(p.programs, `${at}.programs`);
    if (typeof programs === 'string') return programs;
    planners.push({
      id: p.id,
      provider: p.provider as ModelProvider,
      model: p.model,
      api_key_env: p.api_key_env,
      base_url: baseUrl,
      public: p.public === true,
      tags,
      programs,
    });
  }
  return planners;
}

/** The planners of a config that loaded (loadConfig refused a `MODEL_PLANNERS` with a problem). */
export function modelPlanners(config: { MODEL_PLANNERS?: string }): DeploymentModelPlanner[] {
  const parsed = parseModelPlanners(config.MODEL_PLANNERS);
  return typeof parsed === 'string' ? [] : parsed;
}
