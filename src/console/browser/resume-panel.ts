/**
 * The approval page's "Send it" panel, for an operator once the write is approved: resuming sends
 * exactly the approved action, once, and says what happened (sent, not sent because the screen
 * changed, or where the run is).
 */
import { api } from './api';
import { h } from './dom';
import { statusInWords } from './words';
import type { Approval, Run } from './api-types';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * @param o `words`: the action in words; `answered`: the run and the approval after the resume
 */
export function resumePanel(o: {
  approval: Approval;
  words: string;
  say: (text: string) => void;
  warn: (text: string) => void;
  answered: (run: Run, approval: Approval) => void;
}) {
  const { approval } = o;
  const button = h(
    'button',
    { type: 'button', class: 'primary' },
    'Resume the run: send this write',
  );
  const resume = async () => {
    button.disabled = true;
    button.textContent = 'Sending…';
    try {
      const run: Run = await api(`/api/computer-use/runs/${approval.run_id}/resume`, {
        method: 'POST',
      });
      const now: Approval = await api(`/api/approvals/${approval.id}`);
      const step = run.steps?.find((st) => st.n === now.step);
      if (step?.outcome === 'sent_after_approval') {
        o.say(
          `Sent: step ${now.step} (${o.words}) was carried out on the screen it was approved on. The run goes on.`,
        );
      } else if (step?.outcome === 'stale') {
        o.warn(
          `Not sent: the screen changed after approval${step.error ? ` (${step.error})` : ''}. Warden stopped the run (stale screen) without clicking or typing anything.`,
        );
      } else {
        o.say(
          `Resumed. The run is ${statusInWords(run)}; the run page shows when the write is carried out.`,
        );
      }
      o.answered(run, now);
    } catch (error) {
      o.warn(`Could not resume the run: ${messageOf(error)}.`);
      button.disabled = false;
      button.textContent = 'Resume the run: send this write';
    }
  };
  button.addEventListener('click', () => void resume());
  return h(
    'div',
    { class: 'resume' },
    h('h2', {}, 'Send it'),
    h(
      'p',
      {},
      'Resuming sends exactly this action, once. Warden first takes a fresh screenshot: if the screen is no longer the one shown here, nothing is sent and the run stops.',
    ),
    button,
  );
}
