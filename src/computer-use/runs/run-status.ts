/**
 * The run state machine of docs/step-flow.md, written down once. Every change of a run's status goes
 * through RunLifecycle.transition, which checks this table and updates conditionally on the
 * status it read, so two workers can never both move a run.
 */
export const RUN_STATUSES = [
  'queued',
  'running',
  'awaiting_approval',
  'completed',
  'failed',
  'stopped',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const END_REASONS = {
  completed: ['done'],
  failed: ['fail', 'model_error', 'screen_host_error', 'outcome_unknown'],
  stopped: [
    'step_cap',
    'time_cap',
    'invalid_actions',
    'killed',
    'cancelled',
    'stale_screen',
    'rejected',
    'approval_expired',
    'budget_exhausted',
    'stalled',
    'not_granted',
    'injection',
  ],
} as const;

export type EndStatus = keyof typeof END_REASONS;
export type EndReason = (typeof END_REASONS)[EndStatus][number];

export const TRANSITIONS: Record<RunStatus, readonly RunStatus[]> = {
  queued: ['running', 'stopped'],
  running: ['awaiting_approval', 'completed', 'failed', 'stopped'],
  awaiting_approval: ['running', 'failed', 'stopped'],
  completed: [],
  failed: [],
  stopped: [],
};

/** Statuses that hold the screen host's lease: at most one run per screen host is in one of them. */
export const LEASE_HOLDING: readonly RunStatus[] = ['running', 'awaiting_approval'];
export const ACTIVE: readonly RunStatus[] = ['queued', 'running', 'awaiting_approval'];

export function isEnd(status: RunStatus): status is EndStatus {
  return TRANSITIONS[status].length === 0;
}

export function endStatusOf(reason: EndReason): EndStatus {
  for (const status of Object.keys(END_REASONS) as EndStatus[]) {
    if ((END_REASONS[status] as readonly string[]).includes(reason)) return status;
  }
  throw new Error(`unknown end reason ${reason}`);
}

export function canMove(from: RunStatus, to: RunStatus): boolean {
  return TRANSITIONS[from].includes(to);
}
