/**
 * The approval page's sections as small views over its state and parts: the heading, the evidence
 * (what the write changes, the screen it was held on), the decision aside and its panel (the form,
 * resuming, or nothing).
 */
import { editList } from './changes';
import { railNotice } from './rail';
import { redactionNotice } from './redaction-notice';
import { facts, h } from './dom';
import { whyBesideChanges } from './change-words';
import { decisionHeading } from './decision-heading';
import { closeUp } from './close-up';
import { labelEvidenceInWords } from './label-words';
import { clock, exactJson } from './words';
import {
  followRunHref,
  leadView,
  panelView,
  safetyCheckLines,
  systemOf,
  volatileInWords,
  type ApprovalState,
} from './approval-view';
import type { Held, Parts } from './approval-parts';
import type { Approval, Run } from './api-types';

/** The form that approves or rejects, its buttons closed to whoever Warden says may not press them. */
export function decideForm(
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
export function headingView(state: ApprovalState, held: Held) {
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
export function evidenceView(
  state: ApprovalState,
  held: Held,
  p: Parts,
  changes: HTMLElement | null,
) {
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
export function moreView(approval: Approval, held: Held, runStatus: HTMLElement) {
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
export function decisionView(state: ApprovalState, held: Held, p: Parts) {
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
export function safetyChecks(approval: Approval) {
  const lines = safetyCheckLines(approval);
  if (!lines.length) return null;
  return h(
    'div',
    { class: 'safety-checks' },
    h('h2', { class: 'why-title' }, 'The model provider flagged it'),
    h('ul', {}, ...lines.map((c) => h('li', {}, h('code', {}, c.code), c.message))),
  );
}
/** What the decision panel's buttons do. */
export interface PanelWiring {
  decide: (kind: 'approve' | 'reject', comment: string, buttons: HTMLButtonElement[]) => void;
  resume: (panel: Omit<PanelWiring, 'decide' | 'resume'>) => HTMLElement;
  say: (text: string) => void;
  warn: (text: string) => void;
  answered: (run: Run, approval: Approval) => void;
}

/** The decision panel: the form, resuming, or nothing; and the way to the run. */
export function panelNodes(state: ApprovalState, wiring: PanelWiring) {
  const view = panelView(state);
  const href = followRunHref(state);
  const { say, warn, answered } = wiring;
  return [
    view.kind === 'decide' ? decideForm(view, wiring.decide) : null,
    view.kind === 'resume' ? wiring.resume({ say, warn, answered }) : null,
    href ? h('p', {}, h('a', { href }, 'Follow the run step by step')) : null,
  ].filter((node) => node !== null);
}
