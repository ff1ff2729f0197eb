/**
 * A run as a film: its steps in order, each with the screen it saw, the action drawn on it, read
 * or write and why, what happened, and the model's usage. Polled while the run moves. Each step
 * is drawn by run-step.ts.
 */
import { api } from './api';
import { every, facts, h } from './dom';
import { saveAsRoutine } from './routine';
import { messageOf } from './run-transcript';
import { stepItem } from './run-step';
import { clock, duration, isEnded, outcomeInWords, statusInWords } from './words';
import { summaryInWords } from './summary-words';
import type { Run } from './api-types';
import type { PageContext } from './page';

function usage(run: Run) {
  const steps = run.steps ?? [];
  // A step of a batch after its first asked no model (calls 0), and neither did the navigator.
  const calls = steps.filter((st) => st.model && st.model.calls !== 0);
  const count = calls.reduce((total, st) => total + (st.model?.calls ?? 1), 0);
  if (!count) return 'no model calls';
  const sum = (field: 'input_tokens' | 'output_tokens') =>
    calls.some((st) => typeof st.model?.[field] !== 'number')
      ? 'unknown'
      : String(calls.reduce((total, st) => total + Number(st.model?.[field] ?? 0), 0));
  return `${count} model calls · ${sum('input_tokens')} in / ${sum('output_tokens')} out tokens`;
}

export async function renderRun(main: HTMLElement, ctx: PageContext) {
  const id = ctx.params[0];
  let run: Run = await api(`/api/computer-use/runs/${id}`, { signal: ctx.signal });
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

  const items: Map<number, { sig: string; li: HTMLElement }> = new Map();
  let shownStatus = '';
  let actionsFor = '';

  const draw = () => {
    header.replaceChildren(
      facts([
        ['Status', h('span', { class: `status status-${run.status}` }, statusInWords(run))],
        [
          'Summary',
          run.summary
            ? [
                summaryInWords(run.summary),
                summaryInWords(run.summary) === run.summary
                  ? null
                  : h(
                      'details',
                      { class: 'exact-summary' },
                      h('summary', {}, 'As the planner wrote it'),
                      h('code', {}, run.summary),
                    ),
              ]
            : null,
        ],
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
          api<Run>(`/api/computer-use/runs/${run.id}/resume`, { method: 'POST' }).then(
            (answered) => {
              run = answered;
              const step = answered.steps?.find((st) => st.n === pending.step);
              if (step?.outcome === 'stale')
                alert.textContent = `Not sent: the screen changed after approval${step.error ? ` (${step.error})` : ''}. The run stopped.`;
              else
                said.textContent = `Resumed: step ${pending.step} is ${outcomeInWords(step?.outcome ?? null)}.`;
              draw();
            },
            (error: unknown) => {
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
          api<Run>(`/api/computer-use/runs/${run.id}/cancel`, { method: 'POST' }).then(
            (answered) => {
              run = answered;
              said.textContent = 'The run was cancelled.';
              draw();
            },
            (error: unknown) => {
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
    let previous: ChildNode | null = null;
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
      const wanted: ChildNode | null = previous ? previous.nextSibling : timeline.firstChild;
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
