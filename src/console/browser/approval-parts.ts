/**
 * The approval page's parts: what the held write is drawn with (read once, on opening), the nodes
 * that change with the page's state, and `drawState`, which brings them up to date.
 */
import { decidersFacts } from './deciders';
import { h } from './dom';
import { marksInWords, targetOf } from './screen-marks';
import { afterSentView } from './after-sent';
import { screenView } from './screens';
import { typingFocus } from './typing-focus';
import { actionInWords, statusInWords } from './words';
import {
  heldStep,
  noteText,
  sentCaption,
  standView,
  whyNot,
  whyTitle,
  type ApprovalState,
} from './approval-view';
import type { Step } from './api-types';

/** What the held write is drawn with, from the step that proposed it (read once, on opening). */
export interface Held {
  step: Step | undefined;
  steps: Step[];
  words: string;
  focus: ReturnType<typeof typingFocus>;
  target: ReturnType<typeof targetOf>;
  edit: Step['edit'] | null;
  width: number | null;
  height: number | null;
}

export function heldOf(state: ApprovalState): Held {
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
export interface Parts {
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

export function parts(state: ApprovalState, held: Held): Parts {
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
/** Brings the parts that change with the state up to date (all but the decision panel). */
export function drawState(p: Parts, state: ApprovalState) {
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
/** Says what happened (`say`) or what went wrong (`warn`), each clearing the other. */
export function speaker(p: Parts) {
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
