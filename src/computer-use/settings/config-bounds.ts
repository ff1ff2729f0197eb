/**
 * What an agent's configuration is checked against besides its own fields (agent-fields.ts and
 * planner-fields.ts hold those, each with its bounds): the enumerations, the name patterns and the
 * bounds of the parts of a field (a rectangle's coordinates, a list's length). Imports only
 * config/names.ts and notifications/ (the channel kinds and their bounds), so the field tables and
 * the DTOs can use it without going through agent-config.ts.
 */

import { CHANNEL_BOUNDS } from '../../notifications/channels/read-fields';

// The model providers and what a variable name may be: shared with the deployment's own config.
export { ENV_NAME_PATTERN, MODEL_PROVIDERS, type ModelProvider } from '../../config/names';

// What a notification channel may be: notifications define it, an agent lists its channels.
export { NOTIFY_KINDS, type NotifyKind } from '../../notifications/notify-channel';

export const APPROVE_AT = ['every_write', 'commit'] as const;
export const ON_INJECTION = ['hold', 'stop'] as const;
export type OnInjection = (typeof ON_INJECTION)[number];
export type ApproveAt = (typeof APPROVE_AT)[number];

/** Bounds of what is not one field of the tables: counts, lengths and parts of a field. */
export const BOUNDS = {
  agents: 100,
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
  ignore_regions: 50,
  redact_regions: 50,
  coordinate: 100_000,
  ca_file: 4096,
  url: CHANNEL_BOUNDS.url,
  tokens: 1_000_000_000,
  usd: 1_000_000,
  notify: 10,
  notify_to: CHANNEL_BOUNDS.notify_to,
  email: CHANNEL_BOUNDS.email,
} as const;

/** Agent names: the same alphabet as tenants, so they fit in URLs and audit details as they are. */
export const AGENT_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
/** A tenant's script as a planner: `scripted-<uuid>`, written once for both forms below. */
const SCRIPTED_PLANNER_SOURCE = (hex: string) =>
  `^scripted-${hex}{8}-${hex}{4}-${hex}{4}-${hex}{4}-${hex}{12}$`;
export const SCRIPTED_PLANNER_PATTERN = new RegExp(SCRIPTED_PLANNER_SOURCE('[0-9a-f]'), 'i');
/** The same for JSON Schema (no flags there): what OpenAPI says an agent's `planner` may be. */
export const SCRIPTED_PLANNER_JSON_PATTERN = SCRIPTED_PLANNER_SOURCE('[0-9a-fA-F]');
/** A catalog planner id `<family>-<version>-<effort>`, for JSON Schema (planner-id.ts parses it). */
export const PLANNER_ID_JSON_PATTERN =
  '^[a-zA-Z][a-zA-Z0-9]*(?:-[a-zA-Z][a-zA-Z0-9]*)*-(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]+(?:\\.[0-9]+)*)-[a-zA-Z]+$';
/** 32 bytes of hex, either bare or as colon-separated pairs (how `openssl x509 -fingerprint` prints it). */
export const FINGERPRINT_PATTERN = /^(?:[0-9a-f]{64}|(?:[0-9a-f]{2}:){31}[0-9a-f]{2})$/i;
