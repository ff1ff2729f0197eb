/**
 * Who may decide a held write now and whether it was escalated or reminded (decider-words.ts):
 * two lines of facts for the inbox and the approval page, updated in place as the approval
 * changes (an escalation adds people).
 */
import type { Approval } from './api-types';
import { escalationInWords, whoMayDecide } from './decider-words';
import { h } from './dom';

/** Facts rows for `facts()`, and how to bring them up to date. */
export function decidersFacts() {
  const who = h('span', { class: 'deciders' });
  const escalation = h('span', { class: 'escalation' });
  const rows: Array<[string, HTMLElement]> = [
    ['May decide now', who],
    ['Escalation', escalation],
  ];
  return {
    rows,
    update(a: Approval, now: number) {
      who.textContent = whoMayDecide(a);
      escalation.textContent = escalationInWords(a, now);
      escalation.classList.toggle('escalated', Boolean(a.escalated_at));
    },
  };
}
