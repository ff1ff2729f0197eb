// @ts-check
/**
 * A run as a film: its steps in order, each with the screen it saw, the action drawn on it, read
 * or write and why, what happened, and the model's usage. Polled while the run moves.
 */
import { api } from './api.js';
import { fieldValue } from './changes.js';
import { actionTitle, every, facts, h } from './dom.js';
import { saveAsRoutine } from './routine.js';
import { marksInWords } from './screen-marks.js';
import { screenView, typingFocus } from './screens.js';
import {
  clock,
  duration,
  isEnded,
  modelInWords,
  outcomeInWords,
  statusInWords,
  approvalInWords,
  receiptInWords,
  stepOutcomeInWords,
} from './words.js';

/** @typedef {import('./api.js').Run} Run */
/** @typedef {import('./api.js').Step} Step */

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * A model call of a transcript: what it cost, what the model answered, what Warden sent (the
 * screens by SHA-256). Shown as text, never as HTML: a model's answer can say anything.
 * @param {import('./api.js').ModelCall} call
 */
function callView(call) {
  /** @param {number | null} n */
  const known = (n) => (typeof n === 'number' ? String(n) : 'unknown');
  /** @param {string} label @param {unknown} value */
  const json = (label, value) =>
    h('details', {}, h('summary', {}, label), h('pre', {}, JSON.stringify(value, null, 2)));
  return h(
    'section',
    { class: 'model-call' },
    h('h4', {}, `Call ${call.seq}: ${call.provider} ${call.model}`),
    facts([
      ['Tokens', `${known(call.input_tokens)} in / ${known(call.output_tokens)} out`],
      ['Cost', typeof call.cost_usd === 'number' ? `$${call.cost_usd.toFixed(4)}` : 'unknown'],
      ['Latency', `${call.latency_ms} ms`],
      ['Attempts', String(call.attempts.length || 1)],
      ['Error', call.error ? JSON.stringify(call.error) : null],
    ]),
    call.answer ? json('The answer', call.answer) : null,
    json('The request (screens by SHA-256)', call.request),
  );
}

/**
 * The model's transcript of a step, loaded when a person opens it.
 * @param {string} runId
 * @param {number} n
 */
function transcriptDetails(runId, n) {
  const body = h('div', { class: 'transcript', 'aria-live': 'polite' }, 'Loading…');
  const details = h(
    'details',
    { class: 'step-transcript' },
    h('summary', {}, 'Model transcript'),
    body,
  );
  let loading = false;
  details.addEventListener('toggle', () => {
    if (!details.open || loading) return;
    loading = true;
    api(`/api/computer-use/runs/${runId}/steps/${n}/transcript`).then(
      (/** @type {import('./api.js').Transcript} */ transcript) => {
        body.replaceChildren(
          ...(transcript.calls.length
            ? transcript.calls.map(callView)
            : [h('p', {}, 'No model calls were recorded for this step.')]),
        );
      },
      (/** @type {unknown} */ error) => {
        loading = false; // opening it again tries again
        body.textContent = `Could not load the transcript: ${messageOf(error)}.`;
      },
    );
  });
  return details;
}

/**
 * @param {Run} run
 * @param {Step} step
 * @param {boolean} canReadTranscripts
 */
function stepItem(run, step, canReadTranscripts) {
  const steps = run.steps ?? [];
  const focus = step.action?.action === 'type' ? typingFocus(steps, step.n) : null;
  const large = h('div', { class: 'step-large', hidden: true });
  const kind = step.classification ?? 'pending';
  /** @type {HTMLElement} */
  let thumb = h('span', { class: 'screen screen-thumb screen-missing' }, 'no screen yet');
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
              alt: `The screen at step ${step.n}`,
            }),
            h(
              'figcaption',
              {},
              marksInWords(step.action, step.why, step.width ?? 1280, step.height ?? 800, focus),
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
        [
          'Outcome',
          h(
            'span',
            { class: `outcome outcome-${step.outcome ?? 'open'}` },
            stepOutcomeInWords(step),
          ),
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

/** @param {Run} run */
function usage(run) {
  const steps = run.steps ?? [];
  const calls = steps.filter((st) => st.model);
  if (!calls.length) return 'no model calls';
  /** @param {'input_tokens' | 'output_tokens'} field */
  const sum = (field) =>
    calls.some((st) => typeof st.model?.[field] !== 'number')
      ? 'unknown'
      : String(calls.reduce((total, st) => total + Number(st.model?.[field] ?? 0), 0));
  return `${calls.length} model calls · ${sum('input_tokens')} in / ${sum('output_tokens')} out tokens`;
}

/** @type {import('./app.js').Page} */
export async function renderRun(main, ctx) {
  const id = ctx.params[0];
  /** @type {Run} */
  let run = await api(`/api/computer-use/runs/${id}`, { signal: ctx.signal });
  ctx.title(`Run: ${run.goal}`);
  const header = h('div', { class: 'run-header' });
  const actions = h('div', { class: 'run-actions' });
  const said = h('p', { class: 'said', role: 'status' });
  const alert = h('p', { class: 'error', role: 'alert' });
  const timeline = h('ol', { class: 'timeline', 'aria-label': 'Steps, first to last' });
  const live = h('p', { class: 'help live-note' });
  main.append(
    h('p', { class: 'crumbs' }, h('a', { href: '/console/runs' }, '← All runs')),
    h('h1', {}, `“${run.goal}”`),
    header,
    actions,
    said,
    alert,
    h('h2', {}, 'Steps'),
    live,
    timeline,
  );

  /** @type {Map<number, {sig: string, li: HTMLElement}>} */
  const items = new Map();
  let shownStatus = '';
  let actionsFor = '';

  const draw = () => {
    header.replaceChildren(
      facts([
        ['Status', h('span', { class: `status status-${run.status}` }, statusInWords(run))],
        ['Summary', run.summary],
        ['Agent', run.agent],
        ['Started by', run.created_by],
        ['Created', clock(run.created_at)],
        ['Ended', run.ended_at ? clock(run.ended_at) : null],
        [
          'Active time',
          `${duration(run.active_seconds * 1000)} of ${duration(run.max_seconds * 1000)}`,
        ],
        [
          'Steps',
          `${run.step_count} of at most ${run.max_steps}${run.invalid_actions ? `, ${run.invalid_actions} invalid` : ''}`,
        ],
        ['Model usage', usage(run)],
        [
          'Audit',
          ctx.can('audit.read')
            ? h('a', { href: `/console/audit?run_id=${run.id}` }, 'Events of this run')
            : null,
        ],
      ]),
    );
    const pending = run.pending_approval;
    const key = `${run.status}:${pending?.status ?? ''}`;
    if (key !== actionsFor) {
      actionsFor = key;
      actions.replaceChildren();
      if (pending && ctx.can('agents.approve')) {
        actions.append(
          h(
            'a',
            { class: 'button', href: `/console/approvals/${pending.id}` },
            pending.status === 'pending' ? 'Decide on the held write' : 'Open the approval',
          ),
        );
      }
      if (
        pending?.status === 'approved' &&
        ctx.can('agents.operate') &&
        run.status === 'awaiting_approval'
      ) {
        const resume = h(
          'button',
          { type: 'button', class: 'primary' },
          'Resume: send the approved write',
        );
        resume.addEventListener('click', () => {
          resume.disabled = true;
          api(`/api/computer-use/runs/${run.id}/resume`, { method: 'POST' }).then(
            (/** @type {Run} */ answered) => {
              run = answered;
              const step = answered.steps?.find((st) => st.n === pending.step);
              if (step?.outcome === 'stale')
                alert.textContent = `Not sent: the screen changed after approval${step.error ? ` (${step.error})` : ''}. The run stopped.`;
              else
                said.textContent = `Resumed: step ${pending.step} is ${outcomeInWords(step?.outcome ?? null)}.`;
              draw();
            },
            (/** @type {unknown} */ error) => {
              resume.disabled = false;
              alert.textContent = `Could not resume: ${messageOf(error)}.`;
            },
          );
        });
        actions.append(resume);
      }
      if (!isEnded(run.status) && ctx.can('agents.operate')) {
        const cancel = h('button', { type: 'button', class: 'danger' }, 'Cancel the run');
        cancel.addEventListener('click', () => {
          if (!confirm('Cancel this run? It stops before its next action.')) return;
          cancel.disabled = true;
          api(`/api/computer-use/runs/${run.id}/cancel`, { method: 'POST' }).then(
            (/** @type {Run} */ answered) => {
              run = answered;
              said.textContent = 'The run was cancelled.';
              draw();
            },
            (/** @type {unknown} */ error) => {
              cancel.disabled = false;
              alert.textContent = `Could not cancel: ${messageOf(error)}.`;
            },
          );
        });
        actions.append(cancel);
      }
      if (run.status === 'completed' && ctx.can('computer_use.admin'))
        actions.append(saveAsRoutine(run, { said, alert }));
    }
    /** @type {ChildNode | null} */
    let previous = null;
    for (const step of run.steps ?? []) {
      const sig = JSON.stringify([
        step.outcome,
        step.classification,
        step.error,
        step.ended_at,
        run.pending_approval?.status,
        step.screen_sha256,
      ]);
      let item = items.get(step.n);
      if (!item || item.sig !== sig) {
        const li = stepItem(run, step, ctx.can('agents.operate') || ctx.can('audit.read'));
        if (item) item.li.replaceWith(li);
        item = { sig, li };
        items.set(step.n, item);
      }
      /** @type {ChildNode | null} */
      const wanted = previous ? previous.nextSibling : timeline.firstChild;
      if (item.li !== wanted) timeline.insertBefore(item.li, wanted);
      previous = item.li;
    }
    if (!run.steps?.length) live.textContent = 'No steps yet.';
    else
      live.textContent = isEnded(run.status)
        ? 'The run has ended.'
        : 'Live: new steps appear as the run moves.';
    if (shownStatus && shownStatus !== run.status)
      ctx.announce(`The run is now ${statusInWords(run)}.`);
    shownStatus = run.status;
  };
  draw();

  void every(1000, ctx.signal, async () => {
    if (isEnded(run.status)) return false;
    try {
      run = await api(`/api/computer-use/runs/${id}`, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted) return false;
      alert.textContent = `Could not refresh the run (${messageOf(error)}). Trying again.`;
      return;
    }
    draw();
  });
}
