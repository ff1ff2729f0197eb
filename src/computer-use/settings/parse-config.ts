import 'reflect-metadata';
import { type ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { invalid } from '../../common/domain-error';
import { isPlainObject } from '../../common/is-plain-object';
import { loadRules, readScreenRules, RulesError } from '../actions';
import {
  AGENT_NAME_PATTERN,
  type AgentConfig,
  type ComputerUseConfig,
  LIMITS,
  type ModelPlannerConfig,
  type PlannerConfig,
  type Rect,
  SCRIPTED_PLANNER_PATTERN,
  type ScreenTlsConfig,
} from './agent-config';
import { AGENT_FIELD_SPECS } from './agent-fields';
import { AgentDto } from './dto/computer-use-config.dto';
import { ModelPlannerDto } from './dto/model-planner.dto';
import { RECT_FIELDS, RectDto, SCREEN_TLS_FIELDS, ScreenTlsDto } from './dto/screen-parts.dto';
import { type FieldTable, valueFields } from './field-table';
import { MODEL_PLANNER_FIELD_SPECS } from './planner-fields';
import { parsePlannerId } from '../../config/planner-id';
import { unknownModel } from '../../config/model-tools';
import { parseIncludeScreen, parseNotify } from './parse-notify';
import { parseApproverFields } from './approver-fields';
import { findSecrets } from '../../common/secret-fields';
import { destinationOrigin } from '../../destinations/origin';

/**
 * Reads the body of `PUT /api/admin/computer-use` (docs/api.md) into the one normalised shape the
 * engine reads, or refuses it with every problem named by its path
 * (`agents.sap-orders.max_steps must not be greater than 40`). Pure: no database, no clock.
 */

export const CONFIG_FIELDS = ['enabled', 'agents', 'version'] as const;
/** What GET adds; a GET body may be PUT back as it is, so these are accepted and ignored. */
export const READ_ONLY_FIELDS = ['updated_by', 'updated_at', 'notices', 'script_grants'] as const;

const MAX_PROBLEMS = 20;

const SECRET_HINT =
  'secrets are named by environment variable only (screen_token_env, api_key_env), never sent to Warden';

/** Constraints that say a value has the wrong type: when one fails, its bounds say nothing more. */
const TYPE_CONSTRAINTS = ['isInt', 'isNumber', 'isString', 'isBoolean', 'isArray', 'isIn'];

/**
 * What an agent is read with: its field table and the DTO class decorated from it. The fields the
 * table reads as values (`valueFields`) come out of the DTO as checked, or their default; the
 * others each have a reader below (`OwnFields`).
 */
export interface AgentSchema {
  fields: FieldTable;
  dto: ClassConstructor<object>;
}

export const AGENT_SCHEMA: AgentSchema = { fields: AGENT_FIELD_SPECS, dto: AgentDto };
const MODEL_PLANNER_SCHEMA: AgentSchema = {
  fields: MODEL_PLANNER_FIELD_SPECS,
  dto: ModelPlannerDto,
};

/** The agent's fields read by their own reader (`read: 'own'` in agent-fields.ts). */
type OwnFields = {
  [
    K in keyof typeof AGENT_FIELD_SPECS as (typeof AGENT_FIELD_SPECS)[K] extends { read: 'own' }
      ? K
      : never
  ]: AgentConfig[K];
};

export interface ConfigBody {
  config: ComputerUseConfig;
  /** The version the caller based the change on, when it said. */
  basedOn?: number;
}

/** Throws `invalid(...)` (400) naming every problem, or returns the normalised config. */
export function parseConfigBody(raw: unknown): ConfigBody {
  const problems: string[] = [];
  const body = parseConfig(raw, problems);
  if (problems.length > 0 || !body) {
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > MAX_PROBLEMS) shown.push(`and ${problems.length - MAX_PROBLEMS} more`);
    throw invalid(shown.join('; '));
  }
  return body;
}

function parseConfig(raw: unknown, problems: string[]): ConfigBody | null {
  if (!isPlainObject(raw)) {
    problems.push('the body must be a JSON object {enabled, agents}');
    return null;
  }
  // Secrets first: a secret must be refused as one, not as an unknown field.
  const secrets = findSecrets(raw, adminNamedMaps(raw));
  if (secrets.length > 0) {
    for (const s of secrets) {
      problems.push(
        s.kind === 'name'
          ? `${s.path} would hold a secret: ${SECRET_HINT}`
          : `${s.path} looks like it holds a secret (a token, key or password): ${SECRET_HINT}`,
      );
    }
    return null;
  }
  unknownFields(raw, [...CONFIG_FIELDS, ...READ_ONLY_FIELDS], '', 'the config', problems);

  if (typeof raw.enabled !== 'boolean') problems.push('enabled must be true or false');
  let basedOn: number | undefined;
  if (raw.version !== undefined && raw.version !== null) {
    if (!Number.isSafeInteger(raw.version) || (raw.version as number) < 0) {
      problems.push('version must be a whole number (the version this change is based on)');
    } else {
      basedOn = raw.version as number;
    }
  }

  const agents: Record<string, AgentConfig> = {};
  const given = raw.agents ?? {};
  if (!isPlainObject(given)) {
    problems.push('agents must be an object of agents by name: {"sap-orders": {…}}');
  } else {
    const names = Object.keys(given);
    if (names.length > LIMITS.agents) {
      problems.push(`agents: at most ${LIMITS.agents} agents`);
    }
    for (const name of names.slice(0, LIMITS.agents)) {
      if (!AGENT_NAME_PATTERN.test(name)) {
        problems.push(
          `agents: the name "${name.slice(0, 80)}" must be 1-63 lower-case letters, digits and dashes, starting with a letter or digit`,
        );
        continue;
      }
      const agent = parseAgent(given[name], `agents.${name}`, problems);
      if (agent) agents[name] = agent;
    }
  }
  if (problems.length > 0) return null;
  return { config: { enabled: raw.enabled as boolean, agents }, basedOn };
}

export function parseAgent(
  raw: unknown,
  path: string,
  problems: string[],
  schema: AgentSchema = AGENT_SCHEMA,
): AgentConfig | null {
  if (!isPlainObject(raw)) {
    problems.push(`${path} must be an object {screen_url, screen_token_env, …}`);
    return null;
  }
  const before = problems.length;
  const known = unknownFields(raw, Object.keys(schema.fields), path, 'an agent', problems);
  const dto = check(schema.dto, known, path, problems) as Record<string, unknown>;

  const screenTls = parseScreenTls(known.screen_tls, `${path}.screen_tls`, problems);
  const planner = parsePlanner(known.planner, `${path}.planner`, problems);
  const ignoreRegions = parseRegions(known.ignore_regions, `${path}.ignore_regions`, problems);
  const redactRegions = parseRegions(known.redact_regions, `${path}.redact_regions`, problems);
  const notify = parseNotify(known.notify, `${path}.notify`, problems);
  const includeScreen = parseIncludeScreen(
    known.notify_include_screen,
    `${path}.notify_include_screen`,
    problems,
  );
  const deciders = parseApproverFields(known, path, known.approval_timeout_seconds, problems);

  const unlabelled = known.unlabelled_clicks;
  try {
    loadRules({
      commit_words: known.commit_words as string[] | null | undefined,
      navigation_words: known.navigation_words as string[] | null | undefined,
      unlabelled_clicks: unlabelled === 'read' || unlabelled === 'write' ? unlabelled : undefined,
      screen_rules: known.screen_rules,
    });
  } catch (error) {
    if (!(error instanceof RulesError)) throw error;
    for (const problem of error.problems) problems.push(`${path}.${problem}`);
  }

  // The DTO was checked, not narrowed: a reason that is not a string is already a problem above.
  const reason = typeof dto.reason === 'string' ? dto.reason.trim() : '';
  if (dto.require_write_approval === false && !reason) {
    problems.push(
      `${path}.reason is required when require_write_approval is false: say why this agent's writes may act without approval`,
    );
  }
  if (problems.length > before) return null;

  const own: OwnFields = {
    screen_tls: screenTls,
    planner,
    commit_words: [...((known.commit_words as string[] | null | undefined) ?? [])],
    navigation_words: [...((known.navigation_words as string[] | null | undefined) ?? [])],
    ignore_regions: ignoreRegions,
    redact_regions: redactRegions,
    // Checked above; stored normalised (canonical keys, transaction codes in upper case).
    screen_rules: readScreenRules(known.screen_rules, loadRules()).list,
    notify,
    notify_include_screen: includeScreen,
    ...deciders!,
  };
  return read(schema.fields, dto, own) as unknown as AgentConfig;
}

/**
 * The object a table describes, its fields in the table's order: each value field as the DTO
 * checked it or its default, each other field from `own`.
 */
function read(
  fields: FieldTable,
  dto: Record<string, unknown>,
  own: object,
): Record<string, unknown> {
  const values = new Set(valueFields(fields));
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    out[name] = values.has(name)
      ? (dto[name] ?? field.default)
      : (own as Record<string, unknown>)[name];
  }
  return out;
}

function parseScreenTls(raw: unknown, path: string, problems: string[]): ScreenTlsConfig | null {
  if (raw === undefined || raw === null) return null;
  if (!isPlainObject(raw)) {
    problems.push(`${path} must be {"fingerprint_sha256": "…"} or {"ca_file": "/path/ca.pem"}`);
    return null;
  }
  const known = unknownFields(raw, SCREEN_TLS_FIELDS, path, 'screen_tls', problems);
  const given = SCREEN_TLS_FIELDS.filter((f) => known[f] !== undefined && known[f] !== null);
  if (given.length !== 1) {
    problems.push(`${path} must have exactly one of fingerprint_sha256 or ca_file`);
    return null;
  }
  const before = problems.length;
  const dto = check(ScreenTlsDto, known, path, problems);
  if (problems.length > before) return null;
  if (dto.fingerprint_sha256 !== undefined) {
    // The screen host prints it this way, and the TLS check compares it this way.
    return { fingerprint_sha256: dto.fingerprint_sha256.replace(/:/g, '').toLowerCase() };
  }
  return { ca_file: dto.ca_file! };
}

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

function parseRegions(raw: unknown, path: string, problems: string[]): Rect[] {
  // Its type and count (ignore_regions and redact_regions have one bound) are the DTO's to refuse.
  if (!Array.isArray(raw) || raw.length > LIMITS.ignore_regions) return [];
  const regions: Rect[] = [];
  raw.forEach((item, i) => {
    const here = `${path}.${i}`;
    if (!isPlainObject(item)) {
      problems.push(`${here} must be a rectangle {x, y, width, height}`);
      return;
    }
    const known = unknownFields(item, RECT_FIELDS, here, 'a rectangle', problems);
    const before = problems.length;
    const dto = check(RectDto, known, here, problems);
    if (problems.length === before) {
      regions.push({ x: dto.x, y: dto.y, width: dto.width, height: dto.height });
    }
  });
  return regions;
}

/**
 * The objects of a body whose keys the admin chooses, so they are not field names a secret could
 * hide behind: agent names, and a screen rule's keys and labels (`"^Change Password$": "write"`).
 */
function adminNamedMaps(raw: Record<string, unknown>): Set<string> {
  const paths = new Set(['agents']);
  if (!isPlainObject(raw.agents)) return paths;
  for (const [name, agent] of Object.entries(raw.agents)) {
    const rules = isPlainObject(agent) ? agent.screen_rules : undefined;
    if (!Array.isArray(rules)) continue;
    rules.forEach((_rule: unknown, i) => {
      paths.add(`agents.${name}.screen_rules.${i}.keys`);
      paths.add(`agents.${name}.screen_rules.${i}.labels`);
    });
  }
  return paths;
}

/** The fields of `raw` that `fields` knows; a problem for each other one. */
function unknownFields(
  raw: Record<string, unknown>,
  fields: readonly string[],
  path: string,
  what: string,
  problems: string[],
): Record<string, unknown> {
  const known: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (fields.includes(key)) {
      known[key] = value;
    } else {
      const here = path ? `${path}.${key}` : key;
      problems.push(
        `${here.slice(0, 200)} is not a field of ${what} (one of ${fields.join(', ')})`,
      );
    }
  }
  return known;
}

/** Validates `known` (only known fields, so nothing odd reaches class-transformer) as a `cls`. */
function check<T extends object>(
  cls: ClassConstructor<T>,
  known: Record<string, unknown>,
  path: string,
  problems: string[],
): T {
  const instance = plainToInstance(cls, known);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
  describe(errors, path, problems);
  return instance;
}

function describe(errors: ValidationError[], prefix: string, problems: string[]): void {
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0 && (error.value === undefined || error.value === null)) {
      problems.push(`${path} is required`);
      continue;
    }
    const typeFailure = constraints.find(([name]) => TYPE_CONSTRAINTS.includes(name));
    for (const [, message] of typeFailure ? [typeFailure] : constraints) {
      // class-validator starts its messages with the property's own name; say the whole path.
      problems.push(
        message.startsWith(`${error.property} `)
          ? path + message.slice(error.property.length)
          : `${path}: ${message}`,
      );
    }
    if (error.children?.length) describe(error.children, path, problems);
  }
}
