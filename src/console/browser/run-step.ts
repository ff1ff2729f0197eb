/**
 * A step of a run's film (run.ts): the screen it saw with its action drawn on it, and its facts.
 */
import { fieldValue } from './changes';
import { actionTitle, facts, h } from './dom';
import { labelEvidenceInWords } from './label-words';
import { transcriptDetails } from './run-transcript';
import { marksInWords, targetOf } from './screen-marks';
import { screenView } from './screens';
import { typingFocus } from './typing-focus';
import {
  approvalInWords,
  clock,
  exactJson,
  modelInWords,
  receiptInWords,
  stepOutcomeInWords,
} from './words';
import type { Run, Step } from './api-types';

/**
 * One step of the film: its screen (a thumbnail that opens larger), the action drawn where the
 * outline placed its target (the same frame outside the target as on an approval page), read or
 * write and why, what happened, its approval and its model.
 */
export function stepItem(run: Run, step: Step, canReadTranscripts: boolean) {
  const steps = run.steps ?? [];
  const focus = step.action?.action === 'type' ? typingFocus(steps, step.n) : null;
  // Where the outline placed what the action lands on: the marks go around it, outside it.
  const target = targetOf(step);
  const large = h('div', { class: 'step-large', hidden: true });
  const kind = step.classification ?? 'pending';
  let thumb: HTMLElement = h(
    'span',
    { class: 'screen screen-thumb screen-missing' },
    'no screen yet',
  );
  if (step.screen_sha256) {
    const button = h(
      'button',
      {
        type: 'button',
        class: 'thumb-button',
        'aria-expanded': 'false',
        'aria-label': `Show the screen of step ${step.n} larger`,
      },
      screenView({
        runId: run.id,
        n: step.n,
        width: step.width,
        height: step.height,
        action: step.action,
        why: step.why,
        focus,
        size: 'thumb',
        target,
        alt: '',
      }),
    );
    button.addEventListener('click', () => {
      const open = button.getAttribute('aria-expanded') === 'true';
      button.setAttribute('aria-expanded', String(!open));
      large.hidden = open;
      if (!open && !large.firstChild) {
        large.append(
          h(
            'figure',
            {},
            screenView({
              runId: run.id,
              n: step.n,
              width: step.width,
              height: step.height,
              action: step.action,
              why: step.why,
              focus,
              size: 'full',
              target,
              alt: `The screen at step ${step.n}`,
            }),
            h(
              'figcaption',
              {},
              marksInWords(
                step.action,
                step.why,
                step.width ?? 1280,
                step.height ?? 800,
                focus,
                target,
              ),
            ),
          ),
        );
      }
    });
    thumb = button;
  }
  const timing = (step.timings ?? []).reduce(
    (sum, t) => sum + (typeof t.total_ms === 'number' ? t.total_ms : 0),
    0,
  );
  const pending =
    run.pending_approval && run.pending_approval.step === step.n ? run.pending_approval : null;
  return h(
    'li',
    { class: `step step-${kind}`, 'data-step': step.n, 'data-outcome': step.outcome ?? '' },
    thumb,
    h(
      'div',
      { class: 'step-body' },
      h(
        'h3',
        {},
        h('span', { class: 'step-n' }, `Step ${step.n}`),
        ' ',
        ...actionTitle(step.action, step.why),
      ),
      h(
        'p',
        { class: 'step-kind' },
        h('span', { class: `badge badge-${kind}` }, kind),
        ' ',
        step.why ?? '',
      ),
      facts([
        // How the label the rules judged was read: the outline, OCR, or nothing.
        [
          'Label',
          step.label_evidence
            ? h('span', { class: 'label-evidence' }, labelEvidenceInWords(step.label_evidence))
            : null,
        ],
        [
          'Outcome',
          h(
            'span',
            { class: `outcome outcome-${step.outcome ?? 'open'}` },
            stepOutcomeInWords(step),
          ),
        ],
        // The point on the screen, which headings leave to the screenshot.
        [
          'Exact action',
          typeof step.action?.x === 'number' ? h('code', {}, exactJson(step.action)) : null,
        ],
        ['Field before', step.staged ? fieldValue(step.staged.before) : null],
        ['The application said', receiptInWords(step.receipt)],
        ['Error', step.error ?? null],
        [
          'Approval',
          pending
            ? h(
                'a',
                { href: `/console/approvals/${pending.id}` },
                `${pending.status}: open the approval`,
              )
            : step.approval
              ? h(
                  'a',
                  { href: `/console/approvals/${step.approval.id}`, class: 'step-approval' },
                  approvalInWords(step.approval),
                )
              : null,
        ],
        ['Model', modelInWords(step.model)],
        // Which of the model's answers held this action: the steps of one answer share its id.
        [
          'Batch',
          step.batch
            ? `action ${step.batch.place} of the model's answer ${step.batch.turn.slice(0, 8)}`
            : null,
        ],
        [
          'Time',
          timing
            ? `${Math.round(timing)} ms of work, ${clock(step.started_at)}`
            : clock(step.started_at),
        ],
      ]),
      step.model && canReadTranscripts ? transcriptDetails(run.id, step.n) : null,
    ),
    large,
  );
}
