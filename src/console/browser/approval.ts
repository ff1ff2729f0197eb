/**
 * One waiting action: the full screenshot the planner saw with the action drawn on it, the run's
 * earlier steps, and the decision. After approval, an operator resumes the run from here. The
 * page is one state (approval-view.ts says what each part shows of it); approval-parts.ts and
 * approval-sections.ts turn it into nodes, and `update` brings the nodes that change up to date.
 */
import { ApiError, api } from './api';
import { changeList } from './changes';
import { every, h } from './dom';
import { reportAttention } from './attention';
import { refusalInWords } from './decision-words';
import { earlierSteps } from './earlier-steps';
import { resumePanel } from './resume-panel';
import {
  decidedInWords,
  panelKey,
  runMayHaveMoved,
  settled,
  standView,
  type ApprovalState,
} from './approval-view';
import { drawState, heldOf, parts, speaker } from './approval-parts';
import { decisionView, evidenceView, headingView, panelNodes } from './approval-sections';
import type { Run } from './api-types';
import type { PageContext } from './page';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function renderApproval(main: HTMLElement, ctx: PageContext) {
  const id = ctx.params[0];
  const canOperate = ctx.can('agents.operate');
  const state: ApprovalState = {
    approval: await api(`/api/approvals/${id}`, { signal: ctx.signal }),
    run: null,
    canOperate,
    canReadRuns: canOperate || ctx.can('audit.read'),
  };
  const attention = reportAttention(id, ctx.signal);
  // A waiting action with no run (docs/approver-guide.md, oversight) says its goal and system itself.
  const runId = state.approval.run_id;
  const readRun = (): Promise<Run> =>
    api(`/api/console/approvals/${id}/run`, { signal: ctx.signal });
  try {
    if (runId !== null) state.run = await readRun();
  } catch (error) {
    if (ctx.signal.aborted) return;
    // The decision does not need the run; say what is missing and go on.
    main.append(
      h('p', { class: 'error' }, `The run of this action could not be read: ${messageOf(error)}`),
    );
  }
  const held = heldOf(state);
  ctx.title(`Approval: ${held.words}`);
  const p = parts(state, held);
  const { say, warn } = speaker(p);

  const refreshRun = async () => {
    if (runId === null) return;
    try {
      state.run = await readRun();
    } catch {
      // Keep the last run seen; the approval itself is what this page is about.
    }
  };

  const decide = async (
    kind: 'approve' | 'reject',
    comment: string,
    buttons: HTMLButtonElement[],
  ) => {
    for (const b of buttons) b.disabled = true;
    try {
      state.approval = await api(`/api/approvals/${id}/${kind}`, {
        method: 'POST',
        json: { ...(comment ? { comment } : {}), view_id: attention.viewId() },
      });
      await refreshRun();
      say(decidedInWords(kind));
      update(true);
    } catch (error) {
      warn(refusalInWords(kind, error));
      for (const b of buttons) b.disabled = false;
      if (error instanceof ApiError && error.status === 409) {
        state.approval = await api(`/api/approvals/${id}`);
        update(true);
      }
    }
  };

  let panelFor = '';
  const update = (force: boolean = false) => {
    drawState(p, state);
    const key = panelKey(state);
    if (key === panelFor && !force) return;
    panelFor = key;
    p.panel.replaceChildren(
      ...panelNodes(state, {
        decide: (kind, text, buttons) => void decide(kind, text, buttons),
        resume: (panel) => resumePanel({ approval: state.approval, words: held.words, ...panel }),
        say,
        warn,
        answered: (answeredRun, answeredApproval) => {
          state.run = answeredRun;
          state.approval = answeredApproval;
          update(true);
        },
      }),
    );
  };

  const changes = changeList(state.approval, { level: 'h2', explain: true, steps: held.steps });
  main.append(
    ...headingView(state, held),
    h(
      'div',
      { class: 'approval-layout' },
      evidenceView(state, held, p, changes),
      decisionView(state, held, p),
    ),
    earlierSteps(state.approval, held.steps),
  );
  attention.watch(changes);
  update(true);

  void every(1000, ctx.signal, async () => {
    const before = state.approval.status;
    try {
      state.approval = await api(`/api/approvals/${id}`, { signal: ctx.signal });
    } catch {
      if (ctx.signal.aborted) return false;
      return;
    }
    if (runMayHaveMoved(before, state.approval)) await refreshRun();
    if (state.approval.status !== before) {
      ctx.announce(standView(state, Date.now()).text);
    }
    update();
    return !settled(state);
  });
}
