import type { Action } from '../computer-use/actions';
import type { ProviderSafetyCheck } from '../computer-use/planning/planner';
import type { Approval } from './approval.entity';

/** A waiting action as the API shows it (DESIGN §9). */
export interface ApprovalView {
  id: string;
  kind: string;
  status: string;
  tenant: string;
  agent: string;
  run_id: string;
  step: number;
  action: Action;
  why: string;
  screen_sha256: string;
  screen_pixel_sha256: string;
  volatile_pixels: number;
  requested_by: string;
  created_at: string;
  expires_at: string;
  decided_by: string | null;
  decided_at: string | null;
  comment: string | null;
  spent_by: string | null;
  spent_at: string | null;
  safety_checks: ProviderSafetyCheck[] | null;
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
    action: a.action,
    why: a.why,
    screen_sha256: a.screenSha256,
    screen_pixel_sha256: a.screenPixelSha256,
    volatile_pixels: a.volatilePixels,
    requested_by: a.requestedBy,
    created_at: a.createdAt.toISOString(),
    expires_at: a.expiresAt.toISOString(),
    decided_by: a.decidedBy,
    decided_at: a.decidedAt?.toISOString() ?? null,
    comment: a.comment,
    spent_by: a.spentBy,
    spent_at: a.spentAt?.toISOString() ?? null,
    safety_checks: a.safetyChecks,
  };
}
