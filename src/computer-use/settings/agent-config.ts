/**
 * The computer-use configuration of a tenant as the engine reads it (DESIGN §9): validated,
 * normalised and with every default filled in, so there is one shape. Field names are the API's.
 */
import { type ModelProvider } from '../../config/names';
import type { ScreenRule } from '../actions';

export { ENV_NAME_PATTERN, MODEL_PROVIDERS, type ModelProvider } from '../../config/names';

/** A planner that asks a model (DESIGN §8). Budgets and prices left out are `null`: no cap, unknown price. */
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

/** `scripted-<uuid>` (a stored script, DESIGN §8) or a model. */
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
  /** Why the agent is weakened (DESIGN §6, `weakening.ts`); required when a change weakens it. */
  reason: string | null;
  four_eyes: boolean;
  approval_timeout_seconds: number;
  stall_after: number;
  /** `null`: the deployment's default model, if there is one. */
  planner: PlannerConfig | null;
  commit_words: string[];
  /** Words that make a command control a read (added to the defaults; adding one is a weakening). */
  navigation_words: string[];
  unlabelled_clicks: 'read' | 'write';
  ignore_regions: Rect[];
  /**
   * Rectangles (in the host's coordinate space) blacked out in every screenshot Warden keeps or
   * shows, the model's included; never in what the host acts on (screens/redaction.ts).
   */
  redact_regions: Rect[];
  /** DESIGN §5: keys canonical, transaction codes in upper case (actions/screen-rules-read.ts). */
  screen_rules: ScreenRule[];
  /**
   * Where writes wait for a person (DESIGN §6): every write, or only commits, with typing staged
   * and listed on the commit's approval (`"commit"`, a weakening).
   */
  approve_at: ApproveAt;
  /**
   * What the injection rail does when a model's screen holds instructions to it (`injected`):
   * hold the action for a person (the default), or stop the run (`injection`).
   */
  on_injection: OnInjection;
  /** Where Warden tells people about held writes, decisions and run ends (DESIGN §6, docs/notifications.md). */
  notify: NotifyChannel[];
  /** Whether messages may carry typed text and the screen's link; off: "typed text (N characters)". */
  notify_include_screen: boolean;
  /**
   * Who may decide this agent's writes (DESIGN §6, approver groups): typed entries,
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

export const NOTIFY_KINDS = ['webhook', 'slack', 'teams', 'email'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

/**
 * One channel of an agent's notifications. Secrets are named by variable: a webhook's signing
 * secret (`secret_env`), and a Slack or Teams incoming-webhook URL as a whole (`url_env`), since
 * whoever holds that URL may post. Each may go only to an origin the operator granted (DESIGN §7).
 */
export type NotifyChannel =
  | { kind: 'webhook'; url: string; secret_env: string }
  | { kind: 'slack'; url_env: string }
  | { kind: 'teams'; url_env: string }
  | { kind: 'email'; to: string[] };

export const APPROVE_AT = ['every_write', 'commit'] as const;
export const ON_INJECTION = ['hold', 'stop'] as const;
export type OnInjection = (typeof ON_INJECTION)[number];
export type ApproveAt = (typeof APPROVE_AT)[number];

export interface ComputerUseConfig {
  enabled: boolean;
  agents: Record<string, AgentConfig>;
}

/** What an agent gets for each field left out. */
export const AGENT_DEFAULTS: Readonly<Omit<AgentConfig, 'screen_url' | 'screen_token_env'>> =
  Object.freeze({
    screen_tls: null,
    system: null,
    max_steps: 20,
    max_seconds: 300,
    require_write_approval: true,
    reason: null,
    four_eyes: true,
    approval_timeout_seconds: 3600,
    stall_after: 3,
    planner: null,
    commit_words: [],
    navigation_words: [],
    unlabelled_clicks: 'write',
    ignore_regions: [],
    redact_regions: [],
    screen_rules: [],
    approve_at: 'every_write',
    on_injection: 'hold',
    notify: [],
    notify_include_screen: false,
    approvers: [],
    remind_after_seconds: null,
    escalate_after_seconds: null,
    escalate_to: [],
  });

export const MODEL_PLANNER_DEFAULTS: Readonly<
  Omit<ModelPlannerConfig, 'provider' | 'model' | 'api_key_env'>
> = Object.freeze({
  base_url: null,
  max_tokens_per_run: null,
  max_tokens_per_day: null,
  max_cost_usd_per_run: null,
  price_per_mtok_in: null,
  price_per_mtok_out: null,
  price_per_mtok_cache_read: null,
  price_per_mtok_cache_write: null,
  history_screens: 3,
  timeout_seconds: 60,
});

/** Bounds of every number and list in an agent's configuration. */
export const LIMITS = {
  agents: 100,
  max_steps: { min: 1, max: 40 },
  max_seconds: { min: 10, max: 3600 },
  approval_timeout_seconds: { min: 5, max: 604_800 },
  /**
   * Reminder and escalation delays: from 1 s so that tests can wait for them (a deployment uses
   * minutes); each must come before the approval's timeout, which is at most a week.
   */
  approval_timer_seconds: { min: 1, max: 604_800 },
  /**
   * Entries of `approvers` and `escalate_to`: how many, and how long the name after `group:` or
   * `subject:`. 100: a list of 50 untyped names from before entries were typed is 100 typed ones
   * (each became `group:` and `subject:`), and a GET must PUT back.
   */
  approvers: 100,
  approver_name: 200,
  stall_after: { min: 1, max: 40 },
  ignore_regions: 50,
  redact_regions: 50,
  coordinate: 100_000,
  system: 200,
  reason: 1000,
  model: 200,
  ca_file: 4096,
  url: 2048,
  history_screens: { min: 0, max: 10 },
  timeout_seconds: { min: 1, max: 600 },
  tokens: 1_000_000_000,
  usd: 1_000_000,
  notify: 10,
  notify_to: 20,
  email: 254,
} as const;

/** Agent names: the same alphabet as tenants, so they fit in URLs and audit details as they are. */
export const AGENT_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const SCRIPTED_PLANNER_PATTERN =
  /^scripted-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** 32 bytes of hex, either bare or as colon-separated pairs (how `openssl x509 -fingerprint` prints it). */
export const FINGERPRINT_PATTERN = /^(?:[0-9a-f]{64}|(?:[0-9a-f]{2}:){31}[0-9a-f]{2})$/i;

/** A config written by an older Warden, with the defaults of fields added since filled in. */
export function withDefaults(config: ComputerUseConfig): ComputerUseConfig {
  const agents: Record<string, AgentConfig> = {};
  for (const [name, agent] of Object.entries(config.agents)) {
    const planner =
      agent.planner !== null && typeof agent.planner === 'object'
        ? { ...MODEL_PLANNER_DEFAULTS, ...agent.planner }
        : (agent.planner ?? null);
    agents[name] = {
      ...AGENT_DEFAULTS,
      ...agent,
      commit_words: agent.commit_words ?? [],
      navigation_words: agent.navigation_words ?? [],
      ignore_regions: agent.ignore_regions ?? [],
      redact_regions: agent.redact_regions ?? [],
      screen_rules: agent.screen_rules ?? [],
      notify: agent.notify ?? [],
      approvers: agent.approvers ?? [],
      escalate_to: agent.escalate_to ?? [],
      planner,
    };
  }
  return { enabled: config.enabled, agents };
}
