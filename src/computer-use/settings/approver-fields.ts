import { AGENT_DEFAULTS, type AgentConfig, LIMITS } from './agent-config';

/**
 * Who may decide an agent's writes, and when a pending write is recalled and handed on (DESIGN §6,
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
      `${path}.escalate_to is required when escalate_after_seconds is set: name the groups or subjects the write is handed to`,
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

/** A list of group names or token subjects: trimmed, non-empty, each once. */
function names(raw: unknown, path: string, problems: string[]): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push(`${path} must be a list of group names or token subjects`);
    return [];
  }
  if (raw.length > LIMITS.approvers) {
    problems.push(`${path} must have at most ${LIMITS.approvers} entries`);
    return [];
  }
  const seen = new Set<string>();
  raw.forEach((entry: unknown, i) => {
    const here = `${path}.${i}`;
    if (
      typeof entry !== 'string' ||
      entry.trim() === '' ||
      entry.trim() !== entry ||
      entry.length > LIMITS.approver_name
    ) {
      problems.push(
        `${here} must be a group name or token subject: a string of 1-${LIMITS.approver_name} characters without leading or trailing spaces`,
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
