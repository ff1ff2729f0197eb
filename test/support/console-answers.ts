/**
 * The API's answers as the console reads them (src/console/browser/api-types.ts), for the specs
 * of the console's views: a waiting action, a step and a run, each with every field, changed by
 * what a test passes.
 */
import type { Approval, Run, Step } from '../../src/console/browser/api-types';

/** A held click of step 2 of run r1, waiting since 10:05, that the signed-in person may decide. */
export const waitingAction = (over: Partial<Approval> = {}): Approval => ({
  id: 'a1',
  kind: 'computer_use.write',
  status: 'pending',
  tenant: 'acme',
  agent: 'sap',
  run_id: 'r1',
  step: 2,
  goal: null,
  system: null,
  action: { action: 'left_click', coordinate: [10, 20] },
  why: 'save the order',
  screen_sha256: 'ab',
  screen_pixel_sha256: 'cd',
  volatile_pixels: 0,
  volatile_mask: 'learnt',
  volatile_regions: null,
  requested_by: 'alice',
  created_at: '2026-03-15T10:05:00Z',
  expires_at: '2026-03-15T11:05:00Z',
  decided_by: null,
  decided_at: null,
  decided_via: null,
  comment: null,
  spent_by: null,
  spent_at: null,
  safety_checks: null,
  changes: null,
  rail: null,
  redaction: null,
  may_decide_now: null,
  escalates_at: null,
  escalated_at: null,
  reminded_at: null,
  for_you: { approve: null, reject: null },
  ...over,
});

/** Step `n`: a read that was sent, on a 1280×800 screen. */
export const stepOf = (n: number, over: Partial<Step> = {}): Step => ({
  n,
  screen_sha256: `s${n}`,
  screen_pixel_sha256: `p${n}`,
  width: 1280,
  height: 800,
  action: null,
  classification: 'read',
  why: null,
  outcome: 'sent',
  started_at: '2026-03-15T10:00:00Z',
  ended_at: '2026-03-15T10:00:01Z',
  ...over,
});

/** Run r1 waiting on the write its step 2 holds. */
export const runOf = (over: Partial<Run> = {}): Run => ({
  id: 'r1',
  agent: 'sap',
  system: 'SAP GUI',
  goal: 'Book order 4711',
  status: 'awaiting_approval',
  end_reason: null,
  summary: null,
  created_by: 'alice',
  created_at: '2026-03-15T10:00:00Z',
  started_at: '2026-03-15T10:00:00Z',
  ended_at: null,
  active_seconds: 5,
  max_steps: 20,
  max_seconds: 300,
  step_count: 2,
  invalid_actions: 0,
  pending_approval: null,
  steps: [stepOf(1), stepOf(2, { classification: 'write', outcome: 'held' })],
  ...over,
});
