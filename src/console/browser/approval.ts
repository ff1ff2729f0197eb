/**
 * One waiting action: the full screenshot the planner saw with the action drawn on it, the run's
 * earlier steps, and the decision. After approval, an operator resumes the run from here. The
 * page is one state (approval-view.ts says what each part shows of it); the views below turn it
 * into nodes, and `update` brings the nodes that change up to date.
 */
import { ApiError, api } from './api';
import { changeList, editList } from './changes';
import { railNotice } from './rail';
import { redactionNotice } from './redaction-notice';
import { decidersFacts } from './deciders';
import { every, facts, h } from './dom';
import { whyBesideChanges } from './change-words';
import { decisionHeading } from './decision-heading';
import { marksInWords, targetOf } from './screen-marks';
import { afterSentView } from './after-sent';
import { reportAttention } from './attention';
import { closeUp } from './close-up';
import { screenView } from './screens';
import { typingFocus } from './typing-focus';
import { refusalInWords } from './decision-words';
import { earlierSteps } from './earlier-steps';
import { labelEvidenceInWords } from './label-words';
import { resumePanel } from './resume-panel';
import { actionInWords, clock, exactJson, statusInWords } from './words';
import {
  decidedInWords,
  followRunHref,
  heldStep,
  leadView,
  noteText,
  panelKey,
  panelView,
  runMayHaveMoved,
  safetyCheckLines,
  sentCaption,
  settled,
  standView,
  systemOf,
  volatileInWords,
  whyNot,
  whyTitle,
  type ApprovalState,
} from './approval-view';
import type { Approval, Run, Step } from './api-types';
import type { PageContext } from './page';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What the held write is drawn with, from the step that proposed it (read once, on opening). */
interface Held {
  step: Step | undefined;
  steps: Step[];
  words: string;
  focus: ReturnType<typeof typingFocus>;
  target: ReturnType<typeof targetOf>;
  edit: Step['edit'] | null;
  width: number | null;
  height: number | null;
}

function heldOf(state: ApprovalState): Held {
  const { approval } = state;
  const steps = state.run?.steps ?? [];
  const step = heldStep(state);
  const typing = approval.action.action === 'type';
  return {
    step,
    steps,
    words: actionInWords(approval.action, approval.why, { where: false }),
    focus: typing ? typingFocus(steps, approval.step) : null,
    // Where the outline placed what the action lands on: the marks go around it, outside it.
    target: targetOf(step),
    edit: typing ? (step?.edit ?? null) : null,
    width: step?.width ?? null,
    height: step?.height ?? null,
  };
}

/** The nodes that change with the state; `update` writes into them. */
interface Parts {
  stand: HTMLParagraphElement;
  whyTitle: HTMLHeadingElement;
  deciders: ReturnType<typeof decidersFacts>;
  said: HTMLParagraphElement;
  alert: HTMLParagraphElement;
  panel: HTMLDivElement;
  runStatus: HTMLSpanElement;
  own: HTMLParagraphElement;
  note: HTMLParagraphElement;
  heldScreen: HTMLElement;
  heldCaption: HTMLElement;
  afterSent: ReturnType<typeof afterSentView>;
}

function parts(state: ApprovalState, held: Held): Parts {
  const { approval } = state;
  const runId = approval.run_id;
  const heldCaption = h(
    'figcaption',
    {},
    marksInWords(
      approval.action,
      approval.why,
      held.width ?? 1280,
      held.height ?? 800,
      held.focus,
      held.target,
    ),
  );
  const heldScreen = h(
    'figure',
    { class: 'held-screen' },
    runId === null
      ? null
      : screenView({
          runId,
          n: approval.step,
          width: held.width,
          height: held.height,
          action: approval.action,
          why: approval.why,
          focus: held.focus,
          size: 'full',
          alt: `The screen the planner saw at step ${approval.step}, with the action drawn on it`,
          volatile: approval.volatile_regions,
          changes: approval.changes,
          flagged: approval.rail?.rect ?? null,
          target: held.target,
        }),
    runId === null ? null : heldCaption,
  );
  return {
    stand: h('p', { class: standView(state, Date.now()).className, id: 'standing' }),
    whyTitle: h('h2', { class: 'why-title' }, whyTitle(state)),
    deciders: decidersFacts(),
    said: h('p', { class: 'said', role: 'status' }),
    alert: h('p', { class: 'error', role: 'alert' }),
    panel: h('div', { class: 'decision-panel' }),
    runStatus: h('span'),
    // Warden says whether this person may approve (four-eyes, who may decide): the button says so
    // before anyone presses it, in the words of the refusal it would meet.
    own: h('p', { class: 'notice-own', id: 'approve-why-not' }),
    note: h('p', { class: 'help' }, noteText(state) ?? ''),
    heldScreen,
    heldCaption,
    // After the write was sent: what was sent, and the screen after it.
    afterSent: afterSentView(),
  };
}

/** The form that approves or rejects, its buttons closed to whoever Warden says may not press them. */
function decideForm(
  view: Extract<ReturnType<typeof panelView>, { kind: 'decide' }>,
  decide: (kind: 'approve' | 'reject', comment: string, buttons: HTMLButtonElement[]) => void,
) {
  const comment = h('textarea', {
    id: 'comment',
    name: 'comment',
    rows: 2,
    maxlength: 2000,
    'aria-describedby': 'comment-help',
  });
  const approve = h(
    'button',
    { type: 'submit', class: 'primary', value: 'approve' },
    view.approveLabel,
  );
  if (view.approveClosed) {
    approve.disabled = true;
    approve.setAttribute('aria-describedby', 'approve-why-not');
  }
  const reject = h('button', { type: 'submit', class: 'danger', value: 'reject' }, 'Reject');
  if (view.rejectClosed) {
    reject.disabled = true;
    reject.setAttribute('aria-describedby', 'approve-why-not');
  }
  const form = h(
    'form',
    { class: 'decide', 'aria-label': 'Decide on this write' },
    h('label', { for: 'comment' }, 'Comment (optional)'),
    comment,
    h('p', { id: 'comment-help', class: 'help' }, 'Kept with the decision in the audit log.'),
    h('div', { class: 'buttons' }, approve, reject),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const kind = event.submitter === reject ? 'reject' : 'approve';
    decide(kind, comment.value.trim(), [approve, reject]);
  });
  return form;
}

/** The heading (what is held, where) and the line under it (which run, whose). */
function headingView(state: ApprovalState, held: Held) {
  const { approval } = state;
  const lead = leadView(state);
  return [
    h('p', { class: 'crumbs' }, h('a', { href: '/console/approvals' }, '← All waiting actions')),
    h(
      'h1',
      { class: 'decision-sentence' },
      ...decisionHeading({
        system: systemOf(state),
        action: approval.action,
        why: approval.why,
        changes: approval.changes,
        edit: held.edit,
      }),
    ),
    h('p', { class: 'lead' }, lead.before, h('strong', {}, lead.goal), lead.after),
  ];
}

/** What the write changes, and the screen it was held on (or, once sent, the screen after). */
function evidenceView(state: ApprovalState, held: Held, p: Parts, changes: HTMLElement | null) {
  const { approval } = state;
  return h(
    'div',
    {},
    railNotice(approval),
    redactionNotice(approval),
    p.afterSent.section,
    changes,
    approval.action.action === 'type' && typeof approval.action.text === 'string'
      ? editList(held.edit, approval.action.text, 'h2')
      : null,
    approval.run_id === null ? null : p.heldScreen,
  );
}

/** The details a decision rarely needs: the exact action, how its label was read, the hashes. */
function moreView(approval: Approval, held: Held, runStatus: HTMLElement) {
  const evidence = held.step?.label_evidence;
  return h(
    'details',
    { class: 'more' },
    h('summary', {}, 'More about this action'),
    facts([
      ['Exact action', h('code', {}, exactJson(approval.action))],
      // How the label the rules judged was read: the outline, OCR, or nothing.
      [
        'Label',
        evidence ? h('span', { class: 'label-evidence' }, labelEvidenceInWords(evidence)) : null,
      ],
      ['Held at', clock(approval.created_at)],
      ['Expires at', clock(approval.expires_at)],
      ['Run status', runStatus],
      ['Screen SHA-256', h('code', {}, approval.screen_sha256)],
      ['Pixels that moved by themselves', volatileInWords(approval)],
    ]),
  );
}

/**
 * The decision: where it stands, why, and the buttons first (in the first screen at 1280×800; they
 * stay at the bottom of a phone's screen, console.css); what helps judge it after.
 */
function decisionView(state: ApprovalState, held: Held, p: Parts) {
  const { approval } = state;
  const runId = approval.run_id;
  return h(
    'aside',
    { class: 'decision', 'aria-label': 'Decision' },
    p.stand,
    p.whyTitle,
    h('p', { class: 'why' }, whyBesideChanges(approval.why, approval.changes)),
    safetyChecks(approval),
    p.own,
    p.panel,
    p.said,
    p.alert,
    p.note,
    facts(p.deciders.rows),
    runId === null
      ? null
      : closeUp({
          runId,
          n: approval.step,
          width: held.width,
          height: held.height,
          action: approval.action,
          focus: held.focus,
          target: held.target,
        }),
    moreView(approval, held, p.runStatus),
  );
}

/**
 * The checks a model provider raised on this action (they hold it for a person whatever Warden's
 * rules say), as the provider worded them.
 */
function safetyChecks(approval: Approval) {
  const lines = safetyCheckLines(approval);
  if (!lines.length) return null;
  return h(
    'div',
    { class: 'safety-checks' },
    h('h2', { class: 'why-title' }, 'The model provider flagged it'),
    h('ul', {}, ...lines.map((c) => h('li', {}, h('code', {}, c.code), c.message))),
  );
}

/** Brings the parts that change with the state up to date (all but the decision panel). */
function drawState(p: Parts, state: ApprovalState) {
  const now = Date.now();
  const stand = standView(state, now);
  p.stand.className = stand.className;
  p.stand.textContent = stand.text;
  p.deciders.update(state.approval, now);
  p.runStatus.textContent = state.run ? statusInWords(state.run) : 'not known';
  p.note.hidden = noteText(state) === null;
  // Once the write was sent: what was sent, what the application said, and the next screen.
  if (p.afterSent.show(state.approval, state.run)) {
    p.heldScreen.classList.add('held-screen-sent');
    p.heldCaption.textContent = sentCaption(state.approval);
  }
  p.whyTitle.textContent = whyTitle(state);
  const own = whyNot(state);
  p.own.hidden = own === null;
  p.own.textContent = own ?? '';
}

/** What the decision panel's buttons do. */
interface PanelWiring {
  decide: (kind: 'approve' | 'reject', comment: string, buttons: HTMLButtonElement[]) => void;
  resume: (panel: Omit<PanelWiring, 'decide' | 'resume'>) => HTMLElement;
  say: (text: string) => void;
  warn: (text: string) => void;
  answered: (run: Run, approval: Approval) => void;
}

/** The decision panel: the form, resuming, or nothing; and the way to the run. */
function panelNodes(state: ApprovalState, wiring: PanelWiring) {
  const view = panelView(state);
  const href = followRunHref(state);
  const { say, warn, answered } = wiring;
  return [
    view.kind === 'decide' ? decideForm(view, wiring.decide) : null,
    view.kind === 'resume' ? wiring.resume({ say, warn, answered }) : null,
    href ? h('p', {}, h('a', { href }, 'Follow the run step by step')) : null,
  ].filter((node) => node !== null);
}

/** Says what happened (`say`) or what went wrong (`warn`), each clearing the other. */
function speaker(p: Parts) {
  const say = (text: string) => {
    p.alert.textContent = '';
    p.said.textContent = text;
    p.said.scrollIntoView({ block: 'nearest' });
  };
  const warn = (text: string) => {
    p.said.textContent = '';
    p.alert.textContent = text;
    p.alert.scrollIntoView({ block: 'nearest' });
  };
  return { say, warn };
}

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
