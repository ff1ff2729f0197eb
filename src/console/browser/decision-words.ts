/**
 * Where a waiting action stands and what this person may do with it, in words an approver acts
 * on: the standing line, why they cannot approve (four-eyes, who may decide), a refused decision.
 */
import { ApiError } from './api-error';
import { ago, clock, duration, expiry } from './words';
import type { Approval, Run } from './api-types';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Why this person cannot approve the write, as Warden answered it (`for_you`), or null when they
 * may (or Warden did not say: then the decision itself answers).
 */
export function cannotApprove(approval: Approval): string | null {
  const why = approval.for_you?.approve;
  if (!why) return null;
  // Only approving is closed to them: the four-eyes rule (they started the run).
  if (approval.for_you?.reject === null) {
    return `You cannot approve this write. Four-eyes rule: ${why}. Ask another approver; you may still reject it.`;
  }
  return `You cannot decide this write: ${why}.`;
}

/** The decision refused, in words an approver can act on. */
export function refusalInWords(kind: 'approve' | 'reject', error: unknown) {
  const verb = kind === 'approve' ? 'approve' : 'reject';
  if (error instanceof ApiError) {
    const fourEyes = /^four-eyes:\s*(.*)$/i.exec(error.message);
    if (error.status === 403 && fourEyes) {
      return `You cannot approve this write. Four-eyes rule: ${fourEyes[1]}. Ask another approver.`;
    }
    if (error.status === 403) return `You may not ${verb} this write: ${error.message}.`;
    if (error.status === 409) return `Too late to ${verb}: ${error.message}.`;
  }
  return `Could not ${verb} the write: ${messageOf(error)}.`;
}

/** Where the approval stands, in one or two sentences. */
export function standing(a: Approval, run: Run | null, canOperate: boolean, now: number) {
  const comment = a.comment ? ` Comment: “${a.comment}”` : '';
  const step = run?.steps?.find((st) => st.n === a.step);
  switch (a.status) {
    case 'pending':
      return `Waiting for a decision for ${duration(now - Date.parse(a.created_at))}; expires ${expiry(a.expires_at, now)}.`;
    case 'approved': {
      const when = a.decided_at ? ` ${ago(a.decided_at, now)}` : '';
      const next = canOperate
        ? 'resume the run below to send it.'
        : 'an operator must resume the run to send it.';
      return `Approved by ${a.decided_by ?? '?'}${when}.${comment} Not sent yet: ${next}`;
    }
    case 'rejected':
      return `Rejected by ${a.decided_by ?? '?'} at ${clock(a.decided_at)}.${comment} Nothing was sent; the run stopped.`;
    case 'expired':
      return `Expired at ${clock(a.expires_at)}: nobody decided in time. Nothing was sent; the run stopped.`;
    case 'spent': {
      const used = `Approved by ${a.decided_by ?? '?'}, resumed by ${a.spent_by ?? '?'} at ${clock(a.spent_at)}.${comment}`;
      if (step?.outcome === 'sent_after_approval') return `${used} The write was sent.`;
      if (step?.outcome === 'stale') {
        return `${used} It was not sent: the screen had changed since it was approved${step.error ? ` (${step.error})` : ''}. The run stopped.`;
      }
      return `${used} Sending…`;
    }
    default:
      return a.status;
  }
}

/** The colour of the standing: waiting, good, or not sent. */
export function standingClass(a: Approval, run: Run | null) {
  const outcome = run?.steps?.find((st) => st.n === a.step)?.outcome;
  if (a.status === 'spent' && outcome === 'stale') return 'standing standing-stale';
  return `standing standing-${a.status}`;
}
