/**
 * The holding stage's pure decisions (step-holding.service.ts), apart from the transaction that
 * holds the write: when its approval expires, is recalled and is handed on, what of the injection
 * rail's record it keeps, and what the audit trail says of it (hashes, never the values).
 */
import { sha256Hex } from '../../common/sha256';
import type { Action, Change } from '../actions';
import type { ProviderSafetyCheck } from '../planner-contract/planner';
import type { RailRecord } from '../rail/screen-rail';
import type { AgentConfig } from '../settings/agent-config';

/**
 * When a write held at `now` expires (the agent's timeout as the step read it), when its approvers
 * are reminded and when it is handed on to `escalate_to` (the approver fields in force as it is
 * held; null: never, and never escalated to nobody).
 */
export function approvalTimes(
  timeoutSeconds: number,
  inForce: Pick<AgentConfig, 'remind_after_seconds' | 'escalate_to' | 'escalate_after_seconds'>,
  now: number,
): { expiresAt: Date; remindAt: Date | null; escalateAt: Date | null } {
  const after = (seconds: number | null) =>
    seconds === null ? null : new Date(now + seconds * 1000);
  return {
    expiresAt: new Date(now + timeoutSeconds * 1000),
    remindAt: after(inForce.remind_after_seconds),
    escalateAt: inForce.escalate_to.length > 0 ? after(inForce.escalate_after_seconds) : null,
  };
}

/** The rail's record as the approval keeps it: only a screen it flagged (null: clean or unread). */
export function flaggedRail(rail: RailRecord | null): RailRecord | null {
  return rail && rail.verdict !== 'clean' ? rail : null;
}

/**
 * A change as the audit trail keeps it: the field and the SHA-256 of each value, never the values,
 * which can be personal data (the step records hold them, for those allowed to see them); and
 * what kind of line it is where the change list says (`navigation`: not a change it stores), so
 * that the trail says what the approver was shown.
 */
export function auditedChange(c: Change): Record<string, unknown> {
  const hash = (v: string | null) => (v === null ? null : sha256Hex(v));
  return {
    field: c.field,
    step: c.step,
    before_sha256: hash(c.before),
    after_sha256: hash(c.after),
    read_back_sha256: hash(c.read_back),
    read_back_check: c.read_back_check,
    ...(c.kind ? { kind: c.kind } : {}),
  };
}

/** What `computer_use.write.held` says of a held write. */
export function heldDetails(held: {
  agent: string;
  approval: { id: string; volatilePixels: number; deciders: unknown };
  action: Action;
  why: string;
  screenSha256: string;
  screenPixelSha256: unknown;
  expiresAt: Date;
  safetyChecks: readonly ProviderSafetyCheck[];
  changes: readonly Change[] | null;
  rail: RailRecord | null;
}): Record<string, unknown> {
  const rail = flaggedRail(held.rail);
  return {
    agent: held.agent,
    approval_id: held.approval.id,
    action: held.action,
    why: held.why,
    screen_sha256: held.screenSha256,
    screen_pixel_sha256: held.screenPixelSha256,
    volatile_pixels: held.approval.volatilePixels,
    expires_at: held.expiresAt.toISOString(),
    may_decide_now: held.approval.deciders,
    ...(held.safetyChecks.length > 0 ? { safety_checks: held.safetyChecks } : {}),
    ...(held.changes ? { changes: held.changes.map(auditedChange) } : {}),
    ...(rail
      ? { rail: { verdict: rail.verdict, rule: rail.rule, text_sha256: rail.text_sha256 } }
      : {}),
  };
}
