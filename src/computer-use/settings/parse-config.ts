import { invalid } from '../../common/domain-error';
import { isPlainObject } from '../../common/is-plain-object';
import { loadRules, readScreenRules, RulesError } from '../actions';
import {
  AGENT_NAME_PATTERN,
  type AgentConfig,
  type ComputerUseConfig,
  LIMITS,
} from './agent-config';
import { AGENT_FIELD_SPECS } from './agent-fields';
import { AgentDto } from './dto/computer-use-config.dto';
import { type AgentSchema, check, read, unknownFields } from './field-checks';
import { parsePlannerRef } from './parse-planner';
import { parseRegions, parseScreenTls } from './parse-screen-parts';
import { parseIncludeScreen, parseNotify } from './parse-notify';
import { parseApproverFields } from './approver-fields';
import { findSecrets } from '../../common/secret-fields';

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

export const AGENT_SCHEMA: AgentSchema = { fields: AGENT_FIELD_SPECS, dto: AgentDto };
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
  const planner = parsePlannerRef(known.planner, `${path}.planner`, problems);
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
