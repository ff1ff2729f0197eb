/**
 * Who may decide a held write now (approver groups, docs/security.md) and whether it was escalated or
 * reminded, in words. Pure functions of their inputs.
 */
import type { Approval } from './api-types';
import { ago, clock } from './words';

/** What these words read of an approval. */
export type Deciding = Pick<
  Approval,
  'status' | 'may_decide_now' | 'escalates_at' | 'escalated_at' | 'reminded_at'
>;

/** `subject:carol, group:sap-leads`, or anyone when the agent names no approvers. */
export function whoMayDecide(a: Deciding): string {
  const names = a.may_decide_now ?? null;
  return names ? names.join(', ') : 'anyone with agents.approve';
}

/** `escalated 2 min ago`, `escalates at 2026-05-01 14:03:22`, `not escalated`; with the reminder. */
export function escalationInWords(a: Deciding, now: number): string {
  const escalation = a.escalated_at
    ? `escalated ${ago(a.escalated_at, now)}`
    : a.escalates_at && a.status === 'pending'
      ? `escalates at ${clock(a.escalates_at)}`
      : 'not escalated';
  return a.reminded_at ? `${escalation}; reminded ${ago(a.reminded_at, now)}` : escalation;
}
