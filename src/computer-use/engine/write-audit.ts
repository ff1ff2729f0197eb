import type { Approval } from '../approvals/approval.entity';
import { sha256Hex } from '../../common/sha256';
import type { Action } from '../actions';
import type { Step } from '../runs/step.entity';

/**
 * What a write's audit event (`computer_use.write`, `computer_use.write.unknown`) says of it: the
 * action, why, its Idempotency-Key and its authority: the approval spent on the step, or why none
 * was needed (docs/security.md).
 */
export function writeDetails(
  step: Step,
  action: Action,
  approval?: Approval | null,
): Record<string, unknown> {
  return {
    action,
    why: step.why,
    idempotency_key: step.id,
    approval_id: approval?.id ?? null,
    approved_by: approval?.decidedBy ?? null,
    resumed_by: approval?.spentBy ?? null,
    ...(approval ? {} : withoutApproval(step)),
    // Which of the model's answers it came in, where it held several actions.
    ...(step.batch ? { batch: step.batch } : {}),
  };
}

/** Why a write went without approval: staged under `approve_at: "commit"`, or none needed. */
function withoutApproval(step: Step): Record<string, unknown> {
  if (!step.staged) return { without_approval: 'require_write_approval is off for this agent' };
  const { field, before } = step.staged;
  return {
    staged: true,
    without_approval: 'staged until the commit (approve_at: "commit"); the commit is held',
    field: field.label,
    before_sha256: before === null ? null : sha256Hex(before),
  };
}
