import type { Action } from '@warden/protocol';
import type { ApprovalFacts, NotifyEvent, RunFacts } from './notify-event';

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
}): ApprovalFacts {
  return {
    id: approval.id,
    step: approval.step,
    action: approval.action,
    why: approval.why,
    expires_at: approval.expiresAt.toISOString(),
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
