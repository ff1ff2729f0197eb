/**
 * The approval page's state, and what each of its parts shows of it, as data: approval.ts turns
 * these into nodes and wires the buttons. No DOM here, so the specs check every view without a
 * browser (the console e2e tests check the nodes in Chromium).
 */
import { cannotApprove, standing, standingClass } from './decision-words';
import { isEnded } from './words';
import type { Approval, Run, Step } from './api-types';

/** Everything the approval page shows is drawn from this. */
export interface ApprovalState {
  approval: Approval;
  /** Null while unknown: no run (a waiting action with no run), or it could not be read. */
  run: Run | null;
  /** May resume the run (agents.operate). */
  canOperate: boolean;
  /** May open the run's page (agents.operate or audit.read). */
  canReadRuns: boolean;
}

/** The step that proposed the held write, once the run is known. */
export function heldStep(state: ApprovalState): Step | undefined {
  return state.run?.steps?.find((st) => st.n === state.approval.step);
}

/** Where it stands: the line at the top of the decision, and its colour. */
export function standView(state: ApprovalState, now: number) {
  return {
    className: standingClass(state.approval, state.run),
    text: standing(state.approval, state.run, state.canOperate, now),
  };
}

/** The aside's heading over the planner's reason. */
export function whyTitle(state: ApprovalState) {
  return state.approval.status === 'pending' ? 'Why Warden holds it' : 'Why Warden held it';
}

/** Why this person cannot decide, while the write waits; null: they may (or Warden did not say). */
export function whyNot(state: ApprovalState): string | null {
  return state.approval.status === 'pending' ? cannotApprove(state.approval) : null;
}

/** What approving does, said under the decision while it waits; null once decided. */
export function noteText(state: ApprovalState): string | null {
  if (state.approval.status !== 'pending') return null;
  return state.canOperate
    ? 'Approving sends nothing by itself: you (or another operator) then resume the run from this page, and Warden sends this action once, only if the screen is still the one shown here. Rejecting stops the run.'
    : 'Approving sends nothing by itself: an operator then resumes the run, and Warden sends this action once, only if the screen is still the one shown here. Rejecting stops the run.';
}

/**
 * The decision panel: the form while the write waits (its buttons closed to whoever Warden says
 * may not press them), resuming once approved (an operator, the run still waiting), or nothing;
 * and the link to the run for whoever may read it.
 */
export type PanelView =
  | { kind: 'decide'; approveLabel: string; approveClosed: boolean; rejectClosed: boolean }
  | { kind: 'resume' }
  | { kind: 'none' };

export function panelView(state: ApprovalState): PanelView {
  const { approval, run } = state;
  if (approval.status === 'pending') {
    return {
      kind: 'decide',
      // Approving sends nothing (the API's approve only allows a resume): the button says what
      // happens after it, for this person.
      approveLabel: state.canOperate
        ? 'Approve (you send it next)'
        : 'Approve (an operator sends it)',
      approveClosed: whyNot(state) !== null,
      rejectClosed: Boolean(approval.for_you?.reject),
    };
  }
  if (approval.status === 'approved' && state.canOperate && run?.status === 'awaiting_approval') {
    return { kind: 'resume' };
  }
  return { kind: 'none' };
}

/** What the panel is drawn for: it is drawn again only when this changes (or when forced). */
export function panelKey(state: ApprovalState) {
  return `${state.approval.status}:${state.run?.status ?? ''}`;
}

/** The run's page, for whoever may read it; null: no run known, or not theirs to read. */
export function followRunHref(state: ApprovalState): string | null {
  return state.run && state.canReadRuns ? `/console/runs/${state.run.id}` : null;
}

/** The line under the heading: the step, the run's goal, the agent and who started it. */
export function leadView(state: ApprovalState) {
  const { approval, run } = state;
  return {
    before: `Step ${approval.step} of the run `,
    goal: run ? `“${run.goal}”` : approval.goal ? `“${approval.goal}”` : (approval.run_id ?? ''),
    after: ` on agent ${approval.agent}, started by ${approval.requested_by}.`,
  };
}

/** The system the heading names: the run's, or the waiting action's own. */
export function systemOf(state: ApprovalState): string | undefined {
  return state.run?.system ?? state.approval.system ?? undefined;
}

/** The pixels left out of the check before sending, in words. */
export function volatileInWords(approval: Approval) {
  if (approval.volatile_mask === 'learning') {
    return 'still being learnt (the screen is sampled for about a second after the hold)';
  }
  return approval.volatile_pixels > 0
    ? `${approval.volatile_pixels}, hatched on the screenshot: the check before sending leaves them out`
    : '0';
}

/** What the page says once this person's decision was taken. */
export function decidedInWords(kind: 'approve' | 'reject') {
  return kind === 'approve'
    ? 'You approved this write. Nothing is sent until an operator resumes the run; Warden then checks that the screen is still the one shown here.'
    : 'You rejected this write. Nothing was sent, and the run stopped.';
}

/** The caption under the held screen once the write was sent. */
export function sentCaption(approval: Approval) {
  return `The screen it was approved on (step ${approval.step}), before it was sent.`;
}

/**
 * Whether the run must be read again after the approval was: its status moved, or it was approved
 * or spent (the run moves on without the approval changing).
 */
export function runMayHaveMoved(before: Approval['status'], approval: Approval) {
  return (
    approval.status !== before || approval.status === 'spent' || approval.status === 'approved'
  );
}

/**
 * Whether the page can stop polling: the write was rejected or expired, or it was spent and its
 * step ended, and, if it was sent, the screen after it is known (or the run has ended).
 */
export function settled(state: ApprovalState): boolean {
  const { approval, run } = state;
  if (approval.status === 'rejected' || approval.status === 'expired') return true;
  if (approval.status !== 'spent') return false;
  const step = heldStep(state);
  if (!step?.outcome || step.outcome === 'held') return false;
  if (step.outcome !== 'sent_after_approval') return true;
  return (
    Boolean(run?.steps?.some((st) => st.n > approval.step && st.screen_sha256)) ||
    (run !== null && isEnded(run.status))
  );
}

/** The model provider's checks on the action, as it worded them; empty: none. */
export function safetyCheckLines(approval: Approval) {
  return (approval.safety_checks ?? []).map((c) => ({
    code: c.code ?? c.id,
    message: c.message ? `: ${c.message}` : '',
  }));
}
