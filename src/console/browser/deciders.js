// @ts-check
/**
 * Who may decide a held write now (approver groups, DESIGN §6) and whether it was escalated or
 * reminded: two lines of facts for the inbox and the approval page, updated in place as the
 * approval changes (an escalation adds people).
 */
import { h } from './dom.js';
import { ago, clock } from './words.js';

/** @typedef {import('./api.js').Approval} Approval */

/**
 * `subject:carol, group:sap-leads`, or anyone when the agent names no approvers.
 * @param {Approval} a
 */
export function whoMayDecide(a) {
  const names = a.may_decide_now ?? null;
  return names ? names.join(', ') : 'anyone with agents.approve';
}

/**
 * `escalated 2 min ago`, `escalates at 2026-05-01 14:03:22`, `not escalated`; with the reminder.
 * @param {Approval} a
 * @param {number} now
 */
export function escalationInWords(a, now) {
  const escalation = a.escalated_at
    ? `escalated ${ago(a.escalated_at, now)}`
    : a.escalates_at && a.status === 'pending'
      ? `escalates at ${clock(a.escalates_at)}`
      : 'not escalated';
  return a.reminded_at ? `${escalation}; reminded ${ago(a.reminded_at, now)}` : escalation;
}

/** Facts rows for `facts()`, and how to bring them up to date. */
export function decidersFacts() {
  const who = h('span', { class: 'deciders' });
  const escalation = h('span', { class: 'escalation' });
  return {
    /** @type {Array<[string, HTMLElement]>} */
    rows: [
      ['May decide now', who],
      ['Escalation', escalation],
    ],
    /**
     * @param {Approval} a
     * @param {number} now
     */
    update(a, now) {
      who.textContent = whoMayDecide(a);
      escalation.textContent = escalationInWords(a, now);
      escalation.classList.toggle('escalated', Boolean(a.escalated_at));
    },
  };
}
