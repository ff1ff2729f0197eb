/**
 * A run as a film: its steps in order, each with the screen it saw, the action drawn on it, read
 * or write and why, what happened, and the model's usage. Polled while the run moves. Each step
 * is drawn by run-step.ts. The page is one state (run-view.ts says what each part shows of it);
 * the views below turn it into nodes.
 */
import { api } from './api';
import { every, facts, h } from './dom';
import { saveAsRoutine } from './routine';
import { messageOf } from './run-transcript';
import { stepItem } from './run-step';
import {
  actionsKey,
  actionsView,
  auditHref,
  liveNote,
  resumedInWords,
  runFacts,
  statusNews,
  stepSignature,
  summaryView,
  type RunState,
} from './run-view';
import { isEnded, statusInWords } from './words';
import type { Run } from './api-types';
import type { PageContext } from './page';

/** Where the page says what happened (`said`) or what went wrong (`alert`). */
interface Voice {
  said: HTMLElement;
  alert: HTMLElement;
}

/** The run's facts: where it stands, what the planner said, who, when, how far, at what cost. */
function headerView(state: RunState) {
  const { run } = state;
  const summary = summaryView(run);
  const audit = auditHref(state);
  return facts([
    ['Status', h('span', { class: `status status-${run.status}` }, statusInWords(run))],
    [
      'Summary',
      summary
        ? [
            summary.words,
            summary.exact === null
              ? null
              : h(
                  'details',
                  { class: 'exact-summary' },
                  h('summary', {}, 'As the planner wrote it'),
                  h('code', {}, summary.exact),
                ),
          ]
        : null,
    ],
    ...runFacts(run),
    ['Audit', audit ? h('a', { href: audit }, 'Events of this run') : null],
  ]);
}

/**
 * A button that posts to the run (`resume`, `cancel`) and hands the answered run to `answered`;
 * it opens again when the API refuses, saying why.
 */
function runButton(o: {
  run: Run;
  path: 'resume' | 'cancel';
  label: string;
  className: string;
  failed: string;
  confirm?: string;
  voice: Voice;
  answered: (run: Run) => void;
}) {
  const button = h('button', { type: 'button', class: o.className }, o.label);
  button.addEventListener('click', () => {
    if (o.confirm !== undefined && !confirm(o.confirm)) return;
    button.disabled = true;
    api<Run>(`/api/computer-use/runs/${o.run.id}/${o.path}`, { method: 'POST' }).then(
      o.answered,
      (error: unknown) => {
        button.disabled = false;
        o.voice.alert.textContent = `${o.failed}: ${messageOf(error)}.`;
      },
    );
  });
  return button;
}

/** What can be done with the run now, as links and buttons. */
function actionNodes(state: RunState, voice: Voice, answered: (run: Run) => void) {
  const { run } = state;
  const view = actionsView(state);
  const pending = run.pending_approval;
  const nodes: HTMLElement[] = [];
  if (view.approval) {
    nodes.push(h('a', { class: 'button', href: view.approval.href }, view.approval.label));
  }
  if (view.resume && pending) {
    nodes.push(
      runButton({
        run,
        path: 'resume',
        label: 'Resume: send the approved write',
        className: 'primary',
        failed: 'Could not resume',
        voice,
        answered: (resumed) => {
          const words = resumedInWords(resumed, pending.step);
          if ('alert' in words) voice.alert.textContent = words.alert;
          else voice.said.textContent = words.said;
          answered(resumed);
        },
      }),
    );
  }
  if (view.cancel) {
    nodes.push(
      runButton({
        run,
        path: 'cancel',
        label: 'Cancel the run',
        className: 'danger',
        failed: 'Could not cancel',
        confirm: 'Cancel this run? It stops before its next action.',
        voice,
        answered: (cancelled) => {
          voice.said.textContent = 'The run was cancelled.';
          answered(cancelled);
        },
      }),
    );
  }
  if (view.routine) nodes.push(saveAsRoutine(run, voice));
  return nodes;
}

/**
 * The steps in order: a step's item is drawn again only when what it shows changed, and items are
 * moved into place, never drawn twice.
 */
function timelineView(timeline: HTMLElement, canReadSteps: boolean) {
  const items: Map<number, { sig: string; li: HTMLElement }> = new Map();
  return (run: Run) => {
    let previous: ChildNode | null = null;
    for (const step of run.steps ?? []) {
      const sig = stepSignature(run, step);
      let item = items.get(step.n);
      if (!item || item.sig !== sig) {
        const li = stepItem(run, step, canReadSteps);
        if (item) item.li.replaceWith(li);
        item = { sig, li };
        items.set(step.n, item);
      }
      const wanted: ChildNode | null = previous ? previous.nextSibling : timeline.firstChild;
      if (item.li !== wanted) timeline.insertBefore(item.li, wanted);
      previous = item.li;
    }
  };
}

export async function renderRun(main: HTMLElement, ctx: PageContext) {
  const id = ctx.params[0];
  const state: RunState = {
    run: await api(`/api/computer-use/runs/${id}`, { signal: ctx.signal }),
    can: ctx.can,
  };
  ctx.title(`Run: ${state.run.goal}`);
  const header = h('div', { class: 'run-header' });
  const actions = h('div', { class: 'run-actions' });
  const voice: Voice = {
    said: h('p', { class: 'said', role: 'status' }),
    alert: h('p', { class: 'error', role: 'alert' }),
  };
  const timeline = h('ol', { class: 'timeline', 'aria-label': 'Steps, first to last' });
  const live = h('p', { class: 'help live-note' });
  main.append(
    h('p', { class: 'crumbs' }, h('a', { href: '/console/runs' }, '← All runs')),
    h('h1', {}, `“${state.run.goal}”`),
    header,
    actions,
    voice.said,
    voice.alert,
    h('h2', {}, 'Steps'),
    live,
    timeline,
  );

  const drawSteps = timelineView(timeline, ctx.can('agents.operate') || ctx.can('audit.read'));
  let shownStatus = '';
  let actionsFor = '';
  const answered = (run: Run) => {
    state.run = run;
    draw();
  };
  const draw = () => {
    const { run } = state;
    header.replaceChildren(headerView(state));
    const key = actionsKey(run);
    if (key !== actionsFor) {
      actionsFor = key;
      actions.replaceChildren(...actionNodes(state, voice, answered));
    }
    drawSteps(run);
    live.textContent = liveNote(run);
    const news = statusNews(shownStatus, run);
    if (news) ctx.announce(news);
    shownStatus = run.status;
  };
  draw();

  void every(1000, ctx.signal, async () => {
    if (isEnded(state.run.status)) return false;
    try {
      state.run = await api(`/api/computer-use/runs/${id}`, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted) return false;
      voice.alert.textContent = `Could not refresh the run (${messageOf(error)}). Trying again.`;
      return;
    }
    draw();
  });
}
