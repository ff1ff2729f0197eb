/**
 * The approver of an eval: decides a held action like a careful person would, from what the
 * approval shows (the action and its why), nothing else. Pure.
 */
import type { ApprovalMatcher, TaskPolicy } from './task';

/** How the eval decides: the task's policy, or a deliberately wrong one (a negative control). */
export type PolicyMode = 'task' | 'approve-all' | 'reject-all';

export interface HeldAction {
  action: Record<string, unknown>;
  why: string;
}

export interface Decision {
  decision: 'approve' | 'reject';
  because: string;
}

function matches(m: ApprovalMatcher, held: HeldAction): boolean {
  const a = held.action;
  if (m.action !== undefined && a.action !== m.action) return false;
  if (m.text !== undefined && a.text !== m.text) return false;
  if (m.key !== undefined && a.key !== m.key) return false;
  if (m.why !== undefined && !new RegExp(m.why, 'u').test(held.why)) return false;
  if (m.within !== undefined) {
    const { x, y } = a as { x?: unknown; y?: unknown };
    const r = m.within;
    if (typeof x !== 'number' || typeof y !== 'number') return false;
    if (x < r.x || y < r.y || x >= r.x + r.width || y >= r.y + r.height) return false;
  }
  return true;
}

export function decide(policy: TaskPolicy, held: HeldAction, mode: PolicyMode = 'task'): Decision {
  if (mode === 'approve-all') return { decision: 'approve', because: 'approve-all (control)' };
  if (mode === 'reject-all') return { decision: 'reject', because: 'reject-all (control)' };
  const i = policy.approve.findIndex((m) => matches(m, held));
  if (i >= 0) return { decision: 'approve', because: `the task needs it (policy.approve[${i}])` };
  return { decision: 'reject', because: 'the task does not need it' };
}
