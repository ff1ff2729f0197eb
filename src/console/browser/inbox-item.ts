/**
 * One waiting action of the inbox as nodes, from the inbox's views (inbox-view.ts): its heading,
 * what it changes, its facts, and the held screen once its run is read. The row is kept across
 * polls and brought up to date in place, so keyboard focus and reading position survive.
 */
import { changeList, editList } from './changes';
import { decidersFacts } from './deciders';
import { facts, h } from './dom';
import { decisionHeading } from './decision-heading';
import { whyBesideChanges } from './change-words';
import { targetOf } from './screen-marks';
import { screenView } from './screens';
import {
  goalText,
  heldStepOf,
  itemWords,
  stepView,
  thumbView,
  timesView,
  typedText,
  type RunRead,
} from './inbox-view';
import type { Approval, Run, StagedEdit } from './api-types';

/**
 * The decision in one sentence, as the approval page's heading: the system, the action and what
 * it stores (the record it opened); the system and a typing's field once the run says them.
 */
function heading(approval: Approval, run: Run | null) {
  const held = run ? heldStepOf(approval, run) : undefined;
  const edit: StagedEdit | null = held?.edit ?? null;
  return decisionHeading({
    system: run?.system ?? approval.system,
    action: approval.action,
    why: approval.why,
    changes: approval.changes,
    edit,
  });
}

/** The step's number, and a link to the run for whoever may read it. */
function stepFact(approval: Approval, canReadRuns: boolean) {
  const step = stepView(approval, canReadRuns);
  return step.href
    ? [`${step.n} `, h('a', { href: step.href }, '(follow the run)')]
    : String(step.n);
}

/**
 * A held typing's before → after (the field's value and whether the text replaces it), as on its
 * approval page: the field is the held step's, which the run says. Null: not a typing, or nothing
 * placed the field.
 */
function editView(approval: Approval, run: Run) {
  const text = typedText(approval);
  if (text === null) return null;
  return editList(heldStepOf(approval, run)?.edit, text, 'h3', {
    id: `edit-${approval.id}`,
    explain: false,
  });
}

/** The held screen, its action marked, in the same frame outside the target as on its page. */
function thumbnail(approval: Approval, run: Run) {
  return screenView({ ...thumbView(approval, run), target: targetOf(heldStepOf(approval, run)) });
}

export function inboxItem(approval: Approval, canReadRuns: boolean) {
  const link = h('a', { href: `/console/approvals/${approval.id}` }, ...heading(approval, null));
  const goal = h('span', { class: 'goal' }, goalText(approval, undefined));
  const age = h('span');
  const expires = h('span');
  const thumb = h('div', { class: 'inbox-thumb' });
  const edit = h('div', { class: 'inbox-edit' });
  const deciders = decidersFacts();
  const li = h(
    'li',
    { class: 'inbox-item', 'data-approval-id': approval.id },
    thumb,
    h(
      'div',
      { class: 'inbox-body' },
      h('h2', {}, link),
      changeList(approval, { level: 'h3', explain: false }),
      edit,
      facts([
        ['Agent', approval.agent],
        ['Goal', goal],
        ['Step', stepFact(approval, canReadRuns)],
        ['Why held', whyBesideChanges(approval.why, approval.changes)],
        ['Run started by', approval.requested_by],
        ['Waiting', age],
        ['Expires', expires],
        ...deciders.rows,
      ]),
    ),
  );
  return {
    li,
    words: itemWords(approval),
    /** Draws what the run says (once read): the goal, the heading, the typing's field, the screen. */
    showRun(read: RunRead) {
      goal.textContent = goalText(approval, read);
      if (!('run' in read)) return;
      link.replaceChildren(...heading(approval, read.run));
      const list = editView(approval, read.run);
      if (list) edit.replaceChildren(list);
      thumb.append(thumbnail(approval, read.run));
    },
    /** @param latest the approval as the last poll saw it (an escalation adds deciders) */
    update(now: number, latest: Approval) {
      deciders.update(latest, now);
      const times = timesView(latest, now);
      age.textContent = times.waiting;
      expires.textContent = times.expires;
      li.classList.toggle('expiring', times.expiring);
    },
  };
}

export type InboxItem = ReturnType<typeof inboxItem>;
