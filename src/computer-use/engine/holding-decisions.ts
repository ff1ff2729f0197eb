/**
 * The holding stage's pure decisions (step-holding.service.ts), apart from the transaction that
 * holds the write: when its approval expires, is recalled and is handed on, what of the injection
 * rail's record it keeps, and what the audit trail says of it (hashes, never the values).
 */
import type { ApprovalRedaction } from '../approvals/approval.entity';
import { sha256Hex } from '../../common/sha256';
import { type Action, type Change, type Rect, underRegion } from '../actions';
import type { ProviderSafetyCheck } from '../planner-contract/planner';
import type { RailRecord } from '../rail/screen-rail';
import type { AgentConfig } from '../settings/agent-config';
import { unionArea } from '../settings/weakening';

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

/** The approval's redaction record, or null when the agent redacts nothing. */
export function approvalRedaction(
  regions: readonly Rect[],
  space: { width: number; height: number },
  target: boolean,
  changes: readonly Change[] | null,
): ApprovalRedaction | null {
  if (regions.length === 0) return null;
  const clipped = regions
    .map((r) => {
      const x = Math.max(0, r.x);
      const y = Math.max(0, r.y);
      const width = Math.min(space.width, r.x + r.width) - x;
      const height = Math.min(space.height, r.y + r.height) - y;
      return { x, y, width, height };
    })
    .filter((r) => r.width > 0 && r.height > 0);
  const share = unionArea(clipped) / (space.width * space.height);
  return {
    percent: Math.min(100, Math.ceil(share * 1000) / 10),
    regions: regions.map((r) => ({ ...r })),
    target,
    changes: (changes ?? [])
      .filter((c) => c.rect !== null && underRegion(c.rect, regions))
      .map((c) => c.step),
  };
}

/** What the approval's why adds when the write or its changes lie where the approver sees black. */
export function redactionWhy(redaction: ApprovalRedaction | null): string | null {
  if (!redaction) return null;
  const said: string[] = [];
  if (redaction.target) {
    said.push(
      "it lands under this agent's redact_regions: the screen shown to you is black where it acts",
    );
  }
  const n = redaction.changes.length;
  if (n > 0) {
    const which = `${n === 1 ? 'a change' : `${n} changes`} it stores (step ${redaction.changes.join(', ')})`;
    said.push(
      `${which} ${n === 1 ? 'is' : 'are'} in a field under this agent's redact_regions: the screen shown to you is black there`,
    );
  }
  return said.length > 0 ? said.join('; ') : null;
}

/** What `computer_use.write.held` says of a held write. */
export function heldDetails(held: {
  agent: string;
  approval: { id: string; deciders: unknown };
  action: Action;
  why: string;
  screenSha256: string;
  screenPixelSha256: unknown;
  expiresAt: Date;
  safetyChecks: readonly ProviderSafetyCheck[];
  changes: readonly Change[] | null;
  rail: RailRecord | null;
  redaction?: ApprovalRedaction | null;
}): Record<string, unknown> {
  const rail = flaggedRail(held.rail);
  return {
    agent: held.agent,
    approval_id: held.approval.id,
    action: held.action,
    why: held.why,
    screen_sha256: held.screenSha256,
    screen_pixel_sha256: held.screenPixelSha256,
    expires_at: held.expiresAt.toISOString(),
    may_decide_now: held.approval.deciders,
    ...(held.safetyChecks.length > 0 ? { safety_checks: held.safetyChecks } : {}),
    ...(held.changes ? { changes: held.changes.map(auditedChange) } : {}),
    ...(rail
      ? { rail: { verdict: rail.verdict, rule: rail.rule, text_sha256: rail.text_sha256 } }
      : {}),
    ...(held.redaction ? { redaction: held.redaction } : {}),
  };
}
