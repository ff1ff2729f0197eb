import type { Run } from './run.entity';
import type { RunStatus } from './run-status';

/** Columns a status change may set besides the status. */
export type RunPatch = Partial<
  Pick<
    Run,
    | 'endReason'
    | 'summary'
    | 'startedAt'
    | 'endedAt'
    | 'pendingApproval'
    | 'invalidActions'
    | 'unchangedStreak'
    | 'stepCount'
    | 'plannerState'
  >
>;

const PATCH_COLUMN: Record<keyof RunPatch, string> = {
  endReason: 'end_reason',
  summary: 'summary',
  startedAt: 'started_at',
  endedAt: 'ended_at',
  pendingApproval: 'pending_approval',
  invalidActions: 'invalid_actions',
  unchangedStreak: 'unchanged_streak',
  stepCount: 'step_count',
  plannerState: 'planner_state',
};

/**
 * The SET clauses of a status change to `to` with its patch, the values added to `params`: leaving
 * `running` banks the active time; entering it starts the clock again.
 */
export function statusSets(to: RunStatus, patch: RunPatch, params: unknown[]): string[] {
  const sets = [
    `status = $${params.push(to)}`,
    `updated_at = now()`,
    `active_seconds = active_seconds + CASE WHEN active_since IS NULL THEN 0 ELSE EXTRACT(EPOCH FROM clock_timestamp() - active_since) END`,
    to === 'running' ? `active_since = clock_timestamp()` : `active_since = NULL`,
  ];
  for (const [key, value] of Object.entries(patch)) {
    params.push(key === 'plannerState' ? JSON.stringify(value ?? null) : value);
    sets.push(`${PATCH_COLUMN[key as keyof RunPatch]} = $${params.length}`);
  }
  return sets;
}
