/**
 * The run's earlier steps on an approval page: a strip of thumbnails, each opening its screen
 * larger, with what the step did and how it ended.
 */
import { actionTitle, h } from './dom';
import { marksInWords, targetOf } from './screen-marks';
import { screenView } from './screens';
import { typingFocus } from './typing-focus';
import { stepOutcomeInWords } from './words';
import type { Approval, Step } from './api-types';

/** The run's earlier steps as a strip of thumbnails; choosing one shows it larger below. */
export function earlierSteps(approval: Approval, steps: Step[]) {
  const runId = approval.run_id;
  const earlier = runId === null ? [] : steps.filter((st) => st.n < approval.step);
  const section = h(
    'section',
    { class: 'earlier', 'aria-labelledby': 'earlier-title' },
    h('h2', { id: 'earlier-title' }, 'Earlier steps of this run'),
  );
  if (!earlier.length) {
    section.append(h('p', { class: 'help' }, 'None: this is the run’s first step.'));
    return section;
  }
  const viewer = h('div', { class: 'step-viewer', 'aria-live': 'polite' });
  const list = h('ol', { class: 'strip' });
  const buttons: HTMLButtonElement[] = [];
  for (const st of earlier) {
    const focus = st.action?.action === 'type' ? typingFocus(steps, st.n) : null;
    const button = h(
      'button',
      { type: 'button', class: 'strip-item', 'aria-pressed': 'false' },
      st.screen_sha256
        ? screenView({
            runId: runId!,
            n: st.n,
            width: st.width,
            height: st.height,
            action: st.action,
            why: st.why,
            focus,
            size: 'thumb',
            alt: '',
          })
        : h('span', { class: 'screen screen-thumb screen-missing' }, 'no screen'),
      h(
        'span',
        { class: 'strip-caption' },
        h('strong', {}, `${st.n}`),
        ' ',
        ...actionTitle(st.action, st.why),
        ` · ${st.classification ?? '?'} · ${stepOutcomeInWords(st)}`,
      ),
    );
    button.addEventListener('click', () => {
      const open = button.getAttribute('aria-pressed') === 'true';
      for (const b of buttons) b.setAttribute('aria-pressed', 'false');
      viewer.replaceChildren();
      if (open) return;
      button.setAttribute('aria-pressed', 'true');
      viewer.append(
        h(
          'figure',
          { class: 'earlier-screen' },
          screenView({
            runId: runId!,
            n: st.n,
            width: st.width,
            height: st.height,
            action: st.action,
            why: st.why,
            focus,
            size: 'full',
            target: targetOf(st),
            alt: `The screen at step ${st.n}`,
          }),
          h(
            'figcaption',
            {},
            h('strong', {}, `Step ${st.n}: `, ...actionTitle(st.action, st.why), '. '),
            `${st.classification ?? ''}${st.why ? ` (${st.why})` : ''}, ${stepOutcomeInWords(st)}. `,
            marksInWords(
              st.action,
              st.why,
              st.width ?? 1280,
              st.height ?? 800,
              focus,
              targetOf(st),
            ),
          ),
        ),
      );
    });
    buttons.push(button);
    list.append(h('li', {}, button));
  }
  section.append(list, viewer);
  return section;
}
