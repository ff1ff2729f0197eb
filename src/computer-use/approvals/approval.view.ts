import type { Action, Change, Rect } from '../actions';
import { maskRects } from '../pixels/frame-ignore';
import { VolatileMask } from '../pixels/volatile-mask';
import type { ProviderSafetyCheck } from '../planner-contract/planner';
import type { RailRecord } from '../rail/screen-rail';
import type { Approval, ApprovalRedaction } from './approval.entity';
import type { TestApproval } from './test-approvals.repository';

/** A waiting action as the API shows it (docs/api.md). */
export interface ApprovalView {
  id: string;
  kind: string;
  status: string;
  tenant: string;
  agent: string;
  /** Null for a waiting action with no run: an admin's seeded test (docs/approver-guide.md). */
  run_id: string | null;
  step: number;
  /** A waiting action with no run says its goal and system itself; null: its run says them. */
  goal: string | null;
  system: string | null;
  action: Action;
  why: string;
  screen_sha256: string | null;
  screen_pixel_sha256: string | null;
  volatile_pixels: number;
  /**
   * Whether those pixels are still being learnt (the screen is sampled after the write is held),
   * were learnt, or were given up (the screen is compared whole): docs/security.md.
   */
  volatile_mask: 'learning' | 'learnt' | 'abandoned';
  /**
   * Where those pixels are (docs/rules.md: the approver sees the masked area): rectangles in the
   * screenshot's own pixels (`frame` its size); null when nothing is masked.
   */
  volatile_regions: { frame: { width: number; height: number }; rects: Rect[] } | null;
  requested_by: string;
  created_at: string;
  expires_at: string;
  decided_by: string | null;
  decided_at: string | null;
  /** Where it was decided: `console`, `api`, `slack` or `teams`; null before a decision. */
  decided_via: string | null;
  comment: string | null;
  spent_by: string | null;
  spent_at: string | null;
  safety_checks: ProviderSafetyCheck[] | null;
  /** For a held commit under commit-point approval: what it stores (docs/security.md); else null. */
  changes: Change[] | null;
  /**
   * The injection rail's flag when it held the action: `{verdict, rule, text_sha256, source, rect}`
   * (the approver sees the flagged text on the screen at `rect`); else null.
   */
  rail: RailRecord | null;
  /**
   * The agent's `redact_regions` as the write was held: `{percent, regions, target, changes}` (how
   * much of the screen is black, where, and whether the write or the steps of its changes lie
   * there); null when the agent redacted nothing.
   */
  redaction: ApprovalRedaction | null;
  /**
   * Who may decide it now (docs/security.md, approver groups): groups or token subjects, the agent's
   * approvers plus escalate_to once escalated; null: anyone with agents.approve in the tenant.
   */
  may_decide_now: string[] | null;
  /** When it is (or was) due to be handed to escalate_to; null: it does not escalate. */
  escalates_at: string | null;
  escalated_at: string | null;
  reminded_at: string | null;
}

export function approvalView(a: Approval): ApprovalView {
  return {
    id: a.id,
    kind: a.kind,
    status: a.status,
    tenant: a.tenant,
    agent: a.agent,
    run_id: a.runId,
    step: a.step,
    goal: null,
    system: null,
    action: a.action,
    why: a.why,
    screen_sha256: a.screenSha256,
    screen_pixel_sha256: a.screenPixelSha256,
    volatile_pixels: a.volatilePixels,
    volatile_mask: a.maskState,
    volatile_regions: regionsOf(a.volatileMask),
    requested_by: a.requestedBy,
    created_at: a.createdAt.toISOString(),
    expires_at: a.expiresAt.toISOString(),
    decided_by: a.decidedBy,
    decided_at: a.decidedAt?.toISOString() ?? null,
    decided_via: a.decidedVia ?? null,
    comment: a.comment,
    spent_by: a.spentBy,
    spent_at: a.spentAt?.toISOString() ?? null,
    safety_checks: a.safetyChecks,
    changes: a.changes ?? null,
    rail: a.rail ?? null,
    redaction: a.redaction ?? null,
    may_decide_now: a.deciders ?? null,
    escalates_at: a.escalateAt?.toISOString() ?? null,
    escalated_at: a.escalatedAt?.toISOString() ?? null,
    reminded_at: a.remindedAt?.toISOString() ?? null,
  };
}

/**
 * A seeded test as an approver sees it: a waiting action like any other, with no run and no screen.
 * Nothing in it says it is a test (the oversight report does).
 */
export function testApprovalView(t: TestApproval): ApprovalView {
  return {
    id: t.id,
    kind: 'computer_use.write',
    status: t.status,
    tenant: t.tenant,
    agent: t.agent,
    run_id: null,
    step: 1,
    goal: t.goal,
    system: t.system,
    action: t.action,
    why: t.why,
    screen_sha256: null,
    screen_pixel_sha256: null,
    volatile_pixels: 0,
    volatile_mask: 'learnt',
    volatile_regions: null,
    requested_by: t.seededBy,
    created_at: t.createdAt.toISOString(),
    expires_at: t.expiresAt.toISOString(),
    decided_by: t.decidedBy,
    decided_at: t.decidedAt?.toISOString() ?? null,
    decided_via: t.decidedVia,
    comment: t.comment,
    spent_by: null,
    spent_at: null,
    safety_checks: null,
    changes: t.changes,
    rail: null,
    redaction: null,
    may_decide_now: t.deciders,
    escalates_at: null,
    escalated_at: null,
    reminded_at: null,
  };
}

/** The mask as rectangles to draw; a mask too scattered for that is shown as its bounding box. */
function regionsOf(stored: Buffer | null): ApprovalView['volatile_regions'] {
  if (!stored) return null;
  let mask: VolatileMask;
  try {
    mask = VolatileMask.fromBuffer(stored);
  } catch {
    return null;
  }
  if (mask.size === 0) return null;
  const frame = { width: mask.width, height: mask.height };
  return { frame, rects: maskRects(mask) ?? [boundingBox(mask)] };
}

function boundingBox(mask: VolatileMask): Rect {
  let [x0, y0, x1, y1] = [mask.width, mask.height, -1, -1];
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) {
      if (!mask.hasIndex(y * mask.width + x)) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}
