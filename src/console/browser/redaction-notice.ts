/**
 * The agent's `redact_regions` on the approval page: the screenshot is black there for the
 * approver as for the model, and Warden read no text there. The page says how much of the screen
 * that is, and, above all, when what the write acts on, or a change it stores, lies there.
 */
import { h } from './dom';
import type { Approval } from './api-types';

/** The notice above the screenshot, or null when the agent redacted nothing. */
export function redactionNotice(approval: Approval) {
  const redaction = approval.redaction;
  if (!redaction) return null;
  const hidden: string[] = [];
  if (redaction.target) hidden.push('What this write acts on lies in a blacked-out part.');
  const n = redaction.changes.length;
  if (n > 0) {
    hidden.push(
      `${n === 1 ? 'The field of a change' : `The fields of ${n} changes`} it stores (step ${redaction.changes.join(', ')}) ${n === 1 ? 'lies' : 'lie'} in a blacked-out part.`,
    );
  }
  const share = `${redaction.percent}% of this screen is blacked out for privacy (the agent’s redact_regions): you see black there, and Warden read no text there.`;
  return h(
    'section',
    {
      class: hidden.length > 0 ? 'redaction-notice hides-write' : 'redaction-notice',
      role: 'note',
      'aria-label': 'What this screen hides',
    },
    h(
      'h2',
      {},
      hidden.length > 0
        ? 'You cannot see where this write acts'
        : `${redaction.percent}% of this screen is hidden`,
    ),
    h(
      'p',
      {},
      [share, ...hidden].join(' '),
      hidden.length > 0 ? ' Approve only if you know what it does there without seeing it.' : '',
    ),
  );
}
