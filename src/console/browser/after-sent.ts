/**
 * An approval page once its write was sent: what was sent, by whose approval and resume, what the
 * application said (its receipt), and the screen after it (the next step's screenshot).
 */
import { actionTitle, h } from './dom';
import { screenView } from './screens';
import { clock, receiptInWords, saidNothingChanged } from './words';
import type { Approval, Run } from './api-types';

/**
 * The section, hidden until the write is sent; `show` fills it (again when the next screen
 * arrives or the receipt is read) and answers whether it is shown.
 */
export function afterSentView() {
  const section = h('section', { class: 'after-sent', 'aria-labelledby': 'after-sent-title' });
  section.hidden = true;
  let shown = '';
  const show = (approval: Approval, run: Run | null) => {
    const step = run?.steps?.find((st) => st.n === approval.step);
    if (!run || approval.status !== 'spent' || step?.outcome !== 'sent_after_approval') {
      return false;
    }
    const next = run.steps?.find((st) => st.n > approval.step && st.screen_sha256);
    // Drawn again when the next screen arrives, and when the receipt is read: the step is sent
    // before the application's word on it is (the screen settles first), so a page that drew it
    // in between must not keep a plain "Sent" for a save that changed nothing.
    const drawn = JSON.stringify([next?.n ?? -1, step.receipt ?? null]);
    if (!section.hidden && shown === drawn) return true;
    shown = drawn;
    section.hidden = false;
    const said = receiptInWords(step.receipt);
    const nothing = saidNothingChanged(step.receipt);
    section.classList.toggle('after-sent-nothing', nothing);
    section.replaceChildren(
      h(
        'h2',
        { id: 'after-sent-title' },
        nothing ? 'Sent, and the application changed nothing' : 'Sent',
      ),
      h(
        'p',
        { class: 'sent-what' },
        'Warden sent ',
        ...actionTitle(approval.action, approval.why),
        ` (step ${approval.step}), approved by ${approval.decided_by ?? '?'}, resumed by ${approval.spent_by ?? '?'} at ${clock(approval.spent_at)}.`,
        said ? ` The application said: ${said}.` : '',
      ),
      next
        ? h(
            'figure',
            { class: 'after-screen' },
            screenView({
              runId: run.id,
              n: next.n,
              width: next.width,
              height: next.height,
              action: null,
              why: null,
              size: 'full',
              alt: `The screen after the write was sent (step ${next.n})`,
            }),
            h('figcaption', {}, `The screen after it was sent: what step ${next.n} saw.`),
          )
        : h('p', { class: 'help' }, 'The screen after it appears here once the run takes it.'),
    );
    return true;
  };
  return { section, show };
}
