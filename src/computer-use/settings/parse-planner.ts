import { isPlainObject } from '../../common/is-plain-object';
import { parsePlannerId } from '../../config/planner-id';
import { unknownModel } from '../../config/model-tools';
import { destinationOrigin } from '../../destinations/origin';
import {
  type ModelPlannerConfig,
  type PlannerConfig,
  SCRIPTED_PLANNER_PATTERN,
} from './agent-config';
import { ModelPlannerDto } from './dto/model-planner.dto';
import { type AgentSchema, check, read, unknownFields } from './field-checks';
import { MODEL_PLANNER_FIELD_SPECS } from './planner-fields';

const MODEL_PLANNER_SCHEMA: AgentSchema = {
  fields: MODEL_PLANNER_FIELD_SPECS,
  dto: ModelPlannerDto,
};

/**
 * A planner a config or a script names (a catalog id, `scripted-<uuid>`, or a model object),
 * normalised; null with the problems pushed when it is none. A script's `fallback` is read here.
 */
export function parsePlannerRef(
  raw: unknown,
  path: string,
  problems: string[],
): PlannerConfig | null {
  return parsePlanner(raw, path, problems);
}

function parsePlanner(raw: unknown, path: string, problems: string[]): PlannerConfig | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string') {
    if (SCRIPTED_PLANNER_PATTERN.test(raw)) return raw.toLowerCase();
    // An id of the catalog; whether the caller may use it is the catalog's to say (docs/models.md).
    const id = parsePlannerId(raw);
    if (id) return id.id;
    problems.push(
      `${path} must be a planner id ("<family>-<version>-<effort>" or "scripted-<uuid>", GET /api/planners) or a model {provider, model, api_key_env, …}, not "${raw.slice(0, 80)}"`,
    );
    return null;
  }
  if (!isPlainObject(raw)) {
    problems.push(
      `${path} must be a planner id ("<family>-<version>-<effort>" or "scripted-<uuid>") or a model {provider, model, api_key_env, …}`,
    );
    return null;
  }
  const before = problems.length;
  const fields = MODEL_PLANNER_SCHEMA.fields;
  const known = unknownFields(raw, Object.keys(fields), path, 'a model planner', problems);
  const dto = check(MODEL_PLANNER_SCHEMA.dto, known, path, problems) as Record<string, unknown>;
  if (problems.length > before) return null;
  const planner = read(fields, dto, {}) as unknown as ModelPlannerConfig;
  if (planner.provider === 'openai-compatible' && !planner.base_url) {
    problems.push(`${path}.base_url is required for provider openai-compatible`);
    return null;
  }
  // The tool follows the model: one the table does not know is refused here, not at the provider.
  const unknown = unknownModel(planner.provider, planner.model);
  if (unknown) {
    problems.push(`${path}.model: ${unknown}`);
    return null;
  }
  const endpoint = planner.base_url ? destinationOrigin(planner.base_url) : null;
  if (endpoint && 'problem' in endpoint) {
    problems.push(`${path}.base_url: ${endpoint.problem}`);
    return null;
  }
  return planner;
}
