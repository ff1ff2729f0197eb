/**
 * The computer-use configuration of a tenant as the engine reads it (docs/api.md): validated,
 * normalised and with every default filled in, so there is one shape. Field names are the API's;
 * each field's default and bounds are in its table (agent-fields.ts, planner-fields.ts).
 */
import type { NotifyChannel } from '../../notifications/notify-channel';
import type { ScreenRule } from '../actions';
import { AGENT_FIELD_SPECS } from './agent-fields';
import { type ApproveAt, BOUNDS, type ModelProvider, type OnInjection } from './config-bounds';
import {
  boundsOf,
  defaultsOf,
  type FieldSpec,
  weakeningFields,
  type WeakeningFieldOf,
} from './field-table';
import { MODEL_PLANNER_FIELD_SPECS } from './planner-fields';

export {
  AGENT_NAME_PATTERN,
  APPROVE_AT,
  type ApproveAt,
  ENV_NAME_PATTERN,
  FINGERPRINT_PATTERN,
  MODEL_PROVIDERS,
  type ModelProvider,
  NOTIFY_KINDS,
  type NotifyKind,
  ON_INJECTION,
  type OnInjection,
  SCRIPTED_PLANNER_PATTERN,
} from './config-bounds';
export type { NotifyChannel } from '../../notifications/notify-channel';

/** A planner that asks a model (docs/models.md). Budgets and prices left out are `null`: no cap, unknown price. */
export interface ModelPlannerConfig {
  provider: ModelProvider;
  model: string;
  /** The environment variable holding the provider's key; the key itself is never stored. */
  api_key_env: string;
  /** Required for `openai-compatible`; otherwise `null` (the provider's own endpoint). */
  base_url: string | null;
  max_tokens_per_run: number | null;
  max_tokens_per_day: number | null;
  max_cost_usd_per_run: number | null;
  /** USD per million input tokens. */
  price_per_mtok_in: number | null;
  /** USD per million output tokens. */
  price_per_mtok_out: number | null;
  /** USD per million input tokens read from the provider's prompt cache (Anthropic: 0.1 × input when null). */
  price_per_mtok_cache_read: number | null;
  /** USD per million input tokens written to the prompt cache (Anthropic: 1.25 × input when null). */
  price_per_mtok_cache_write: number | null;
  /** How many earlier screenshots of the run the model sees besides the current one. */
  history_screens: number;
  /** The longest one planning call may take. */
  timeout_seconds: number;
}

/** A planner id of the catalog (`<family>-<version>-<effort>`, `scripted-<uuid>`: docs/models.md) or a model. */
export type PlannerConfig = string | ModelPlannerConfig;

/** How the platform trusts the screen host's certificate; `null` in an agent: the system's CAs. */
export type ScreenTlsConfig =
  /** Lower-case hex of the SHA-256 of the DER certificate, no colons. */
  | { fingerprint_sha256: string }
  /** An absolute path, on the machines running Warden, to a PEM file of CA certificates. */
  | { ca_file: string };

/** A rectangle in screen pixels (the coordinate space of actions). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface AgentConfig {
  screen_url: string;
  /** The environment variable holding the screen host's token; the token itself is never stored. */
  screen_token_env: string;
  screen_tls: ScreenTlsConfig | null;
  /** What the agent works, in words (shown to the planner and to people). */
  system: string | null;
  max_steps: number;
  max_seconds: number;
  require_write_approval: boolean;
  /** Why the agent is weakened (docs/security.md, `weakening.ts`); required when a change weakens it. */
  reason: string | null;
  four_eyes: boolean;
  approval_timeout_seconds: number;
  stall_after: number;
  /** The settle's quiet period for this agent; null: the deployment's `SETTLE_INTERVAL_MS`. */
  settle_ms: number | null;
  /** `null`: the deployment's default model, if there is one. */
  planner: PlannerConfig | null;
  commit_words: string[];
  /** Words that make a command control a read (added to the defaults; adding one is a weakening). */
  navigation_words: string[];
  unlabelled_clicks: 'read' | 'write';
  ignore_regions: Rect[];
  /**
   * Rectangles (in the host's coordinate space) blacked out in every screenshot Warden keeps or
   * shows, the model's included; never in what the host acts on (host-client/redaction.ts).
   */
  redact_regions: Rect[];
  /** docs/rules.md: keys canonical, transaction codes in upper case (actions/screen-rules-read.ts). */
  screen_rules: ScreenRule[];
  /**
   * Where writes wait for a person (docs/security.md): every write, or only commits, with typing staged
   * and listed on the commit's approval (`"commit"`, a weakening).
   */
  approve_at: ApproveAt;
  /**
   * What the injection rail does when a model's screen holds instructions to it (`injected`):
   * hold the action for a person (the default), or stop the run (`injection`).
   */
  on_injection: OnInjection;
  /** Where Warden tells people about held writes, decisions and run ends (docs/security.md, docs/notifications.md). */
  notify: NotifyChannel[];
  /** Whether messages may carry typed text and the screen's link; off: "typed text (N characters)". */
  notify_include_screen: boolean;
  /**
   * Who may decide this agent's writes (docs/security.md, approver groups): typed entries,
   * `group:NAME` (an identity-provider group) or `subject:NAME` (a token's or a person's subject),
   * settings/approver-fields.ts; `[]`: anyone with `agents.approve` in the tenant.
   */
  approvers: string[];
  /** After how long a pending write is recalled (`approval.reminded`); null: never. */
  remind_after_seconds: number | null;
  /** After how long a pending write is handed to `escalate_to` as well; null: never. */
  escalate_after_seconds: number | null;
  /** Who may decide as well once the write is escalated (typed, like `approvers`); non-empty exactly when it escalates. */
  escalate_to: string[];
}

export interface ComputerUseConfig {
  enabled: boolean;
  agents: Record<string, AgentConfig>;
}

/** The table of an agent's fields, checked against `AgentConfig`: each field once, none more. */
type AgentFieldTable = { [K in keyof AgentConfig]-?: FieldSpec<AgentConfig[K]> };
type ModelPlannerFieldTable = {
  [K in keyof ModelPlannerConfig]-?: FieldSpec<ModelPlannerConfig[K]>;
};
type Extra<T, Config> = Exclude<keyof T, keyof Config>;
const AGENT_TABLE: [Extra<typeof AGENT_FIELD_SPECS, AgentConfig>] extends [never]
  ? AgentFieldTable
  : never = AGENT_FIELD_SPECS;
const MODEL_PLANNER_TABLE: [Extra<typeof MODEL_PLANNER_FIELD_SPECS, ModelPlannerConfig>] extends [
  never,
]
  ? ModelPlannerFieldTable
  : never = MODEL_PLANNER_FIELD_SPECS;

/** What an agent gets for each field left out (agent-fields.ts). */
export const AGENT_DEFAULTS = Object.freeze(defaultsOf(AGENT_TABLE)) as Readonly<
  Omit<AgentConfig, 'screen_url' | 'screen_token_env'>
>;

/** What a model planner gets for each field left out (planner-fields.ts). */
export const MODEL_PLANNER_DEFAULTS = Object.freeze(defaultsOf(MODEL_PLANNER_TABLE)) as Readonly<
  Omit<ModelPlannerConfig, 'provider' | 'model' | 'api_key_env'>
>;

/** Bounds of every number and list in an agent's configuration: the tables' and the parts'. */
export const LIMITS = Object.freeze({
  ...BOUNDS,
  ...boundsOf(AGENT_FIELD_SPECS),
  ...boundsOf(MODEL_PLANNER_FIELD_SPECS),
});

/** The fields whose change may be a weakening (weakening.ts judges each). */
export type WeakeningControl = WeakeningFieldOf<typeof AGENT_FIELD_SPECS>;
export const WEAKENING_CONTROLS: readonly WeakeningControl[] = weakeningFields(AGENT_FIELD_SPECS);

const LIST_FIELDS = (Object.keys(AGENT_DEFAULTS) as (keyof AgentConfig)[]).filter((field) =>
  Array.isArray(AGENT_DEFAULTS[field as keyof typeof AGENT_DEFAULTS]),
);

/** A config written by an older Warden, with the defaults of fields added since filled in. */
export function withDefaults(config: ComputerUseConfig): ComputerUseConfig {
  const agents: Record<string, AgentConfig> = {};
  for (const [name, agent] of Object.entries(config.agents)) {
    const planner =
      agent.planner !== null && typeof agent.planner === 'object'
        ? { ...MODEL_PLANNER_DEFAULTS, ...agent.planner }
        : (agent.planner ?? null);
    // A list stored as null, by a Warden from before the field had a default, reads as [].
    const lists = Object.fromEntries(
      LIST_FIELDS.map((field) => [field, (agent[field] as unknown[] | null | undefined) ?? []]),
    );
    agents[name] = { ...AGENT_DEFAULTS, ...agent, ...lists, planner };
  }
  return { enabled: config.enabled, agents };
}
