/**
 * One waiting action: the full screenshot the planner saw with the action drawn on it, the run's
 * earlier steps, and the decision. After approval, an operator resumes the run from here.
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
import { cannotApprove, refusalInWords, standing, standingClass } from './decision-words';
import { earlierSteps } from './earlier-steps';
import { labelEvidenceInWords } from './label-words';
import { resumePanel } from './resume-panel';
import { actionInWords, clock, exactJson, isEnded, statusInWords } from './words';
import type { Approval, Run } from './api-types';
import type { PageContext } from './page';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function renderApproval(main: HTMLElement, ctx: PageContext) {
  const id = ctx.params[0];
  let approval: Approval = await api(`/api/approvals/${id}`, { signal: ctx.signal });
  const attention = reportAttention(id, ctx.signal);
  let run: Run | null = null;
  // A waiting action with no run (docs/approver-guide.md, oversight) says its goal and system itself.
  const runId = approval.run_id;
  try {
    if (runId !== null) run = await api(`/api/console/approvals/${id}/run`, { signal: ctx.signal });
  } catch (error) {
    if (ctx.signal.aborted) return;
    // The decision does not need the run; say what is missing and go on.
    main.append(
      h('p', { class: 'error' }, `The run of this action could not be read: ${messageOf(error)}`),
    );
  }
  const steps = run?.steps ?? [];
  const held = steps.find((st) => st.n === approval.step);
  const words = actionInWords(approval.action, approval.why, { where: false });
  const focus = approval.action.action === 'type' ? typingFocus(steps, approval.step) : null;
  const canOperate = ctx.can('agents.operate');
  const canReadRuns = canOperate || ctx.can('audit.read');
  ctx.title(`Approval: ${words}`);
  // Where the outline placed what the action lands on: the marks go around it, outside it.
  const target = targetOf(held);
  const edit = approval.action.action === 'type' ? (held?.edit ?? null) : null;

  const width = held?.width ?? null;
  const height = held?.height ?? null;
  const heldCaption = h(
    'figcaption',
    {},
    marksInWords(approval.action, approval.why, width ?? 1280, height ?? 800, focus, target),
  );
  const heldScreen = h(
    'figure',
    { class: 'held-screen' },
    runId === null
      ? null
      : screenView({
          runId,
          n: approval.step,
          width,
          height,
          action: approval.action,
          why: approval.why,
          focus,
          size: 'full',
          alt: `The screen the planner saw at step ${approval.step}, with the action drawn on it`,
          volatile: approval.volatile_regions,
          changes: approval.changes,
          flagged: approval.rail?.rect ?? null,
          target,
        }),
    runId === null ? null : heldCaption,
  );
  // After the write was sent: what was sent, and the screen after it.
  const afterSent = afterSentView();

  const stand = h('p', { class: standingClass(approval, run), id: 'standing' });
  const whyTitle = h('h2', { class: 'why-title' }, 'Why Warden holds it');
  const deciders = decidersFacts();
  const said = h('p', { class: 'said', role: 'status' });
  const alert = h('p', { class: 'error', role: 'alert' });
  const panel = h('div', { class: 'decision-panel' });
  const runStatus = h('span');
  // Warden says whether this person may approve (four-eyes, who may decide): the button says so
  // before anyone presses it, in the words of the refusal it would meet.
  const own = h('p', { class: 'notice-own', id: 'approve-why-not' });
  const note = h(
    'p',
    { class: 'help' },
    canOperate
      ? 'Approving sends nothing by itself: you (or another operator) then resume the run from this page, and Warden sends this action once, only if the screen is still the one shown here. Rejecting stops the run.'
      : 'Approving sends nothing by itself: an operator then resumes the run, and Warden sends this action once, only if the screen is still the one shown here. Rejecting stops the run.',
  );

  const say = (text: string) => {
    alert.textContent = '';
    said.textContent = text;
    said.scrollIntoView({ block: 'nearest' });
  };
  const warn = (text: string) => {
    said.textContent = '';
    alert.textContent = text;
    alert.scrollIntoView({ block: 'nearest' });
  };

  const refreshRun = async () => {
    if (runId === null) return;
    try {
      run = await api(`/api/console/approvals/${id}/run`, { signal: ctx.signal });
    } catch {
      // Keep the last run seen; the approval itself is what this page is about.
    }
  };

  const decide = async (
    kind: 'approve' | 'reject',
    comment: HTMLTextAreaElement,
    buttons: HTMLButtonElement[],
  ) => {
    for (const b of buttons) b.disabled = true;
    try {
      const text = comment.value.trim();
      approval = await api(`/api/approvals/${id}/${kind}`, {
        method: 'POST',
        json: { ...(text ? { comment: text } : {}), view_id: attention.viewId() },
      });
      await refreshRun();
      say(
        kind === 'approve'
          ? 'You approved this write. Nothing is sent until an operator resumes the run; Warden then checks that the screen is still the one shown here.'
          : 'You rejected this write. Nothing was sent, and the run stopped.',
      );
      update(true);
    } catch (error) {
      warn(refusalInWords(kind, error));
      for (const b of buttons) b.disabled = false;
      if (error instanceof ApiError && error.status === 409) {
        approval = await api(`/api/approvals/${id}`);
        update(true);
      }
    }
  };

  /** Once the write was sent: what was sent, what the application said, and the next screen. */
  const showAfterSent = () => {
    if (!afterSent.show(approval, run)) return;
    heldScreen.classList.add('held-screen-sent');
    heldCaption.textContent = `The screen it was approved on (step ${approval.step}), before it was sent.`;
  };

  let panelFor = '';
  const update = (force: boolean = false) => {
    const now = Date.now();
    stand.className = standingClass(approval, run);
    stand.textContent = standing(approval, run, canOperate, now);
    deciders.update(approval, now);
    runStatus.textContent = run ? statusInWords(run) : 'not known';
    note.hidden = approval.status !== 'pending';
    showAfterSent();
    whyTitle.textContent =
      approval.status === 'pending' ? 'Why Warden holds it' : 'Why Warden held it';
    const whyNot = approval.status === 'pending' ? cannotApprove(approval) : null;
    own.hidden = whyNot === null;
    own.textContent = whyNot ?? '';
    const key = `${approval.status}:${run?.status ?? ''}`;
    if (key === panelFor && !force) return;
    panelFor = key;
    panel.replaceChildren();
    if (approval.status === 'pending') {
      const comment = h('textarea', {
        id: 'comment',
        name: 'comment',
        rows: 2,
        maxlength: 2000,
        'aria-describedby': 'comment-help',
      });
      // Approving sends nothing (the API's approve only allows a resume): the button says what
      // happens after it, for this person.
      const approve = h(
        'button',
        { type: 'submit', class: 'primary', value: 'approve' },
        canOperate ? 'Approve (you send it next)' : 'Approve (an operator sends it)',
      );
      if (whyNot !== null) {
        approve.disabled = true;
        approve.setAttribute('aria-describedby', 'approve-why-not');
      }
      const reject = h('button', { type: 'submit', class: 'danger', value: 'reject' }, 'Reject');
      if (approval.for_you?.reject) {
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
        const submitter = event.submitter;
        const kind = submitter === reject ? 'reject' : 'approve';
        void decide(kind, comment, [approve, reject]);
      });
      panel.append(form);
    } else if (
      approval.status === 'approved' &&
      canOperate &&
      run?.status === 'awaiting_approval'
    ) {
      panel.append(
        resumePanel({
          approval,
          words,
          say,
          warn,
          answered: (answeredRun, answeredApproval) => {
            run = answeredRun;
            approval = answeredApproval;
            update(true);
          },
        }),
      );
    }
    if (run && canReadRuns) {
      panel.append(
        h('p', {}, h('a', { href: `/console/runs/${run.id}` }, 'Follow the run step by step')),
      );
    }
  };

  const strip = earlierSteps(approval, steps);
  const changes = changeList(approval, { level: 'h2', explain: true, steps });
  main.append(
    h('p', { class: 'crumbs' }, h('a', { href: '/console/approvals' }, '← All waiting actions')),
    h(
      'h1',
      { class: 'decision-sentence' },
      ...decisionHeading({
        system: run?.system ?? approval.system ?? undefined,
        action: approval.action,
        why: approval.why,
        changes: approval.changes,
        edit,
      }),
    ),
    h(
      'p',
      { class: 'lead' },
      `Step ${approval.step} of the run `,
      h(
        'strong',
        {},
        run ? `“${run.goal}”` : approval.goal ? `“${approval.goal}”` : approval.run_id,
      ),
      ` on agent ${approval.agent}, started by ${approval.requested_by}.`,
    ),
    h(
      'div',
      { class: 'approval-layout' },
      h(
        'div',
        {},
        railNotice(approval),
        redactionNotice(approval),
        afterSent.section,
        changes,
        approval.action.action === 'type' && typeof approval.action.text === 'string'
          ? editList(edit, approval.action.text, 'h2')
          : null,
        runId === null ? null : heldScreen,
      ),
      h(
        'aside',
        { class: 'decision', 'aria-label': 'Decision' },
        // Where it stands, why, and the decision first: in the first screen at 1280×800 (the
        // buttons stay at the bottom of a phone's screen, console.css); what helps judge it after.
        stand,
        whyTitle,
        h('p', { class: 'why' }, whyBesideChanges(approval.why, approval.changes)),
        safetyChecks(approval),
        own,
        panel,
        said,
        alert,
        note,
        facts(deciders.rows),
        runId === null
          ? null
          : closeUp({
              runId,
              n: approval.step,
              width,
              height,
              action: approval.action,
              focus,
              target,
            }),
        h(
          'details',
          { class: 'more' },
          h('summary', {}, 'More about this action'),
          facts([
            ['Exact action', h('code', {}, exactJson(approval.action))],
            // How the label the rules judged was read: the outline, OCR, or nothing.
            [
              'Label',
              held?.label_evidence
                ? h('span', { class: 'label-evidence' }, labelEvidenceInWords(held.label_evidence))
                : null,
            ],
            ['Held at', clock(approval.created_at)],
            ['Expires at', clock(approval.expires_at)],
            ['Run status', runStatus],
            ['Screen SHA-256', h('code', {}, approval.screen_sha256)],
            [
              'Pixels that moved by themselves',
              approval.volatile_mask === 'learning'
                ? 'still being learnt (the screen is sampled for about a second after the hold)'
                : approval.volatile_pixels > 0
                  ? `${approval.volatile_pixels}, hatched on the screenshot: the check before sending leaves them out`
                  : '0',
            ],
          ]),
        ),
      ),
    ),
    strip,
  );
  attention.watch(changes);
  update(true);

  void every(1000, ctx.signal, async () => {
    const before = `${approval.status}`;
    try {
      approval = await api(`/api/approvals/${id}`, { signal: ctx.signal });
    } catch {
      if (ctx.signal.aborted) return false;
      return;
    }
    if (
      approval.status !== before ||
      approval.status === 'spent' ||
      approval.status === 'approved'
    ) {
      await refreshRun();
    }
    if (approval.status !== before) ctx.announce(standing(approval, run, canOperate, Date.now()));
    update();
    const step = run?.steps?.find((st) => st.n === approval.step);
    // A sent write is settled once the screen after it is known (or the run has ended).
    const after =
      step?.outcome !== 'sent_after_approval' ||
      Boolean(run?.steps?.some((st) => st.n > approval.step && st.screen_sha256)) ||
      (run !== null && isEnded(run.status));
    const settled =
      approval.status === 'rejected' ||
      approval.status === 'expired' ||
      (approval.status === 'spent' && step?.outcome && step.outcome !== 'held' && after);
    return !settled;
  });
}

/**
 * The checks a model provider raised on this action (they hold it for a person whatever Warden's
 * rules say), as the provider worded them.
 */
function safetyChecks(approval: Approval) {
  const checks = approval.safety_checks ?? [];
  if (!checks.length) return null;
  return h(
    'div',
    { class: 'safety-checks' },
    h('h2', { class: 'why-title' }, 'The model provider flagged it'),
    h(
      'ul',
      {},
      ...checks.map((c) =>
        h('li', {}, h('code', {}, c.code ?? c.id), c.message ? `: ${c.message}` : ''),
      ),
    ),
  );
}
