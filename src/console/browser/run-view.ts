/**
 * The run page's state, and what each of its parts shows of it, as data: run.ts turns these into
 * nodes and wires the buttons. No DOM here, so the specs check every view without a browser (the
 * console e2e tests check the nodes in Chromium).
 */
import { summaryInWords } from './summary-words';
import { clock, duration, isEnded, outcomeInWords, statusInWords } from './words';
import type { Permission, Run, Step } from './api-types';

/** Everything the run page shows is drawn from this. */
export interface RunState {
  run: Run;
  /** Whether the signed-in person has a permission. */
  can: (permission: Permission) => boolean;
}

/** The model calls the run's steps made, and their tokens (unknown when some step's was). */
export function usage(run: Run) {
  const steps = run.steps ?? [];
  // A step of a batch after its first asked no model (calls 0), and neither did the navigator.
  const calls = steps.filter((st) => st.model && st.model.calls !== 0);
  const count = calls.reduce((total, st) => total + (st.model?.calls ?? 1), 0);
  if (!count) return 'no model calls';
  const sum = (field: 'input_tokens' | 'output_tokens') =>
    calls.some((st) => typeof st.model?.[field] !== 'number')
      ? 'unknown'
      : String(calls.reduce((total, st) => total + Number(st.model?.[field] ?? 0), 0));
  return `${count} model calls · ${sum('input_tokens')} in / ${sum('output_tokens')} out tokens`;
}

/** The planner's summary in words, and as it wrote it when the words differ; null: none. */
export function summaryView(run: Run) {
  if (!run.summary) return null;
  const words = summaryInWords(run.summary);
  return { words, exact: words === run.summary ? null : run.summary };
}

/** The header's facts, label by value; null: left out. Status, summary and audit are nodes. */
export function runFacts(run: Run): Array<[string, string | null]> {
  return [
    ['Agent', run.agent],
    ['Started by', run.created_by],
    ['Created', clock(run.created_at)],
    ['Ended', run.ended_at ? clock(run.ended_at) : null],
    [
      'Active time',
      `${duration(run.active_seconds * 1000)} of ${duration(run.max_seconds * 1000)}`,
    ],
    [
      'Steps',
      `${run.step_count} of at most ${run.max_steps}${run.invalid_actions ? `, ${run.invalid_actions} invalid` : ''}`,
    ],
    ['Model usage', usage(run)],
  ];
}

/** The run's audit events, for whoever may read the audit log; null: not theirs to read. */
export function auditHref(state: RunState): string | null {
  return state.can('audit.read') ? `/console/audit?run_id=${state.run.id}` : null;
}

/**
 * What can be done with the run: open its held write (an approver), send the approved write (an
 * operator, the run waiting), cancel it (an operator, not ended), save it as a routine (an admin,
 * completed).
 */
export function actionsView(state: RunState) {
  const { run, can } = state;
  const pending = run.pending_approval;
  return {
    approval:
      pending && can('agents.approve')
        ? {
            href: `/console/approvals/${pending.id}`,
            label: pending.status === 'pending' ? 'Decide on the held write' : 'Open the approval',
          }
        : null,
    resume:
      pending?.status === 'approved' && can('agents.operate') && run.status === 'awaiting_approval',
    cancel: !isEnded(run.status) && can('agents.operate'),
    routine: run.status === 'completed' && can('computer_use.admin'),
  };
}

/** What the actions are drawn for: they are drawn again only when this changes. */
export function actionsKey(run: Run) {
  return `${run.status}:${run.pending_approval?.status ?? ''}`;
}

/** What a step's item is drawn from: it is drawn again only when this changes. */
export function stepSignature(run: Run, step: Step) {
  return JSON.stringify([
    step.outcome,
    step.classification,
    step.error,
    step.ended_at,
    run.pending_approval?.status,
    step.screen_sha256,
  ]);
}

/** The line over the steps: none yet, live, or ended. */
export function liveNote(run: Run) {
  if (!run.steps?.length) return 'No steps yet.';
  return isEnded(run.status) ? 'The run has ended.' : 'Live: new steps appear as the run moves.';
}

/** What is announced when the run's status moved since it was last shown; null: it did not. */
export function statusNews(shown: string, run: Run): string | null {
  return shown && shown !== run.status ? `The run is now ${statusInWords(run)}.` : null;
}

/** What resuming the approved write of step `n` did: sent, or not sent (the screen changed). */
export function resumedInWords(answered: Run, n: number): { said: string } | { alert: string } {
  const step = answered.steps?.find((st) => st.n === n);
  if (step?.outcome === 'stale') {
    return {
      alert: `Not sent: the screen changed after approval${step.error ? ` (${step.error})` : ''}. The run stopped.`,
    };
  }
  return { said: `Resumed: step ${n} is ${outcomeInWords(step?.outcome ?? null)}.` };
}
