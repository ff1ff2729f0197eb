import type { Action } from '@warden/protocol';
import type { ApprovalFacts, ChangeFacts, NotifyEvent, RunFacts } from './notify-event';

/**
 * The facts of events, from runs and approvals as stored (by shape, so notifications depend on
 * neither runs nor approvals).
 */
export function runFacts(run: { id: string; goal: string }): RunFacts {
  return { id: run.id, goal: run.goal };
}

export function approvalFacts(approval: {
  id: string;
  step: number;
  action: Action;
  why: string;
  expiresAt: Date;
  screenSha256: string;
  changes: ChangeFacts[] | null;
}): ApprovalFacts {
  return {
    id: approval.id,
    step: approval.step,
    action: approval.action,
    why: approval.why,
    expires_at: approval.expiresAt.toISOString(),
    screen_sha256: approval.screenSha256,
    changes:
      approval.changes?.map((c) => ({
        field: c.field,
        before: c.before,
        after: c.after,
        read_back: c.read_back,
        ...(c.kind ? { kind: c.kind } : {}),
      })) ?? null,
  };
}

export function runEnded(run: {
  id: string;
  goal: string;
  status: string;
  endReason: string | null;
  summary: string | null;
  stepCount: number;
}): NotifyEvent {
  return {
    kind: 'run_ended',
    run: runFacts(run),
    status: run.status,
    end_reason: run.endReason ?? run.status,
    summary: run.summary,
    steps: run.stepCount,
  };
}
