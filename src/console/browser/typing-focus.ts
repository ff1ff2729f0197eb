/**
 * Where typing goes, as far as a run's steps tell: the point its last click landed on. The same
 * rule the engine uses to know which field has focus. Pure.
 */
import type { Step } from './api-types';
import { clickLabel } from './words';

/** Where typing goes: the point the run's last click landed on, its label and its step. */
export interface Focus {
  x: number;
  y: number;
  label: string;
  step: number;
}

/**
 * The field typing goes into, as the run tells it: the point of the last click that was sent
 * before step `n`, unless a key (Tab, Enter) may have moved the focus since. The same rule the
 * engine uses to know which field has focus.
 */
export function typingFocus(steps: Step[], n: number): Focus | null {
  const earlier = steps.filter((st) => st.n < n).sort((a, b) => b.n - a.n);
  for (const st of earlier) {
    if (st.outcome !== 'sent' && st.outcome !== 'sent_after_approval') continue;
    const a = st.action;
    if (!a) continue;
    if (
      (a.action === 'click' || a.action === 'double_click') &&
      typeof a.x === 'number' &&
      typeof a.y === 'number'
    ) {
      return { x: a.x, y: a.y, label: clickLabel(a, st.why), step: st.n };
    }
    if (a.action === 'key') return null;
  }
  return null;
}
