import { AGENT_DEFAULTS, type AgentConfig, LIMITS } from './agent-config';

/**
 * Who may decide an agent's writes, and when a pending write is recalled and handed on (docs/security.md,
 * approver groups): `approvers`, `remind_after_seconds`, `escalate_after_seconds`, `escalate_to`,
 * read from an agent's body with every problem named by its path. Pure: no Nest, no clock.
 */

export type ApproverFields = Pick<
  AgentConfig,
  'approvers' | 'remind_after_seconds' | 'escalate_after_seconds' | 'escalate_to'
>;

export const APPROVER_FIELDS = [
  'approvers',
  'remind_after_seconds',
  'escalate_after_seconds',
  'escalate_to',
] as const;

/**
 * The four fields of `raw` (an agent's known fields), or null with the problems pushed. The
 * timers are checked against `timeout`, the agent's `approval_timeout_seconds`, when that is valid.
 */
export function parseApproverFields(
  raw: Record<string, unknown>,
  path: string,
  timeout: unknown,
  problems: string[],
): ApproverFields | null {
  const before = problems.length;
  const approvers = names(raw.approvers, `${path}.approvers`, problems);
  const escalateTo = names(raw.escalate_to, `${path}.escalate_to`, problems);
  const remind = seconds(raw.remind_after_seconds, `${path}.remind_after_seconds`, problems);
  const escalate = seconds(raw.escalate_after_seconds, `${path}.escalate_after_seconds`, problems);
  if (problems.length > before) return null;

  const limit = Number.isSafeInteger(timeout)
    ? (timeout as number)
    : timeout === undefined || timeout === null
      ? AGENT_DEFAULTS.approval_timeout_seconds
      : null; // refused as approval_timeout_seconds already
  for (const [field, value] of [
    ['remind_after_seconds', remind],
    ['escalate_after_seconds', escalate],
  ] as const) {
    if (value !== null && limit !== null && value >= limit) {
      problems.push(
        `${path}.${field} must be less than approval_timeout_seconds (${limit}): the write expires first`,
      );
    }
  }
  if (remind !== null && escalate !== null && escalate <= remind) {
    problems.push(
      `${path}.escalate_after_seconds must be greater than remind_after_seconds (${remind}): the reminder comes before the escalation`,
    );
  }
  if (escalate !== null && escalateTo.length === 0) {
    problems.push(
      `${path}.escalate_to is required when escalate_after_seconds is set: name the groups or subjects the write is handed to ("group:NAME", "subject:NAME")`,
    );
  }
  if (escalate === null && escalateTo.length > 0) {
    problems.push(
      `${path}.escalate_after_seconds is required when escalate_to is given: say after how many seconds a pending write is handed on`,
    );
  }
  if (problems.length > before) return null;
  return {
    approvers,
    remind_after_seconds: remind,
    escalate_after_seconds: escalate,
    escalate_to: escalateTo,
  };
}

/**
 * An entry of `approvers` or `escalate_to`, typed so that a group and a person can never be
 * confused (docs/security.md): `group:NAME`, a group of the identity provider the deployment trusts, or
 * `subject:NAME`, an API token's subject or the subject (`sub`) of a person signed in through that
 * provider (deciders.ts says how each is matched).
 */
export const APPROVER_ENTRY = /^(group|subject):(.*)$/s;

/** The typed entries of one untyped name, as it was matched before entries were typed: both. */
export function typedAsBefore(name: string): string[] {
  return [`group:${name}`, `subject:${name}`];
}

/** A list of typed entries: each `group:NAME` or `subject:NAME`, NAME trimmed and non-empty, each once. */
function names(raw: unknown, path: string, problems: string[]): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push(`${path} must be a list of "group:NAME" and "subject:NAME" entries`);
    return [];
  }
  if (raw.length > LIMITS.approvers) {
    problems.push(`${path} must have at most ${LIMITS.approvers} entries`);
    return [];
  }
  const seen = new Set<string>();
  raw.forEach((entry: unknown, i) => {
    const here = `${path}.${i}`;
    const typed = typeof entry === 'string' ? APPROVER_ENTRY.exec(entry) : null;
    const name = typed?.[2];
    if (typeof entry !== 'string') {
      problems.push(`${here} must be a string: "group:NAME" or "subject:NAME"`);
    } else if (!typed) {
      const shown = entry.trim().slice(0, 80);
      problems.push(
        `${here} "${shown}" does not say what it names: write "group:${shown}" for a group of the identity provider, or "subject:${shown}" for an API token's subject or a person's subject (sub)`,
      );
    } else if (!name || name.trim() !== name || name.length > LIMITS.approver_name) {
      problems.push(
        `${here} must name a ${typed[1]} after "${typed[1]}:": 1-${LIMITS.approver_name} characters without leading or trailing spaces`,
      );
    } else if (seen.has(entry)) {
      problems.push(`${here}: "${entry.slice(0, 80)}" is listed twice`);
    } else {
      seen.add(entry);
    }
  });
  return [...seen];
}

/** Null (never) or a whole number of seconds within the timer bounds. */
function seconds(raw: unknown, path: string, problems: string[]): number | null {
  if (raw === undefined || raw === null) return null;
  const { min, max } = LIMITS.approval_timer_seconds;
  if (!Number.isSafeInteger(raw) || (raw as number) < min || (raw as number) > max) {
    problems.push(`${path} must be null or a whole number of seconds from ${min} to ${max}`);
    return null;
  }
  return raw as number;
}
