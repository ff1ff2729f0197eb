/**
 * The approvals inbox: every waiting action of the tenant that the signed-in person may decide,
 * oldest first, polled every second.
 * Rows are kept and updated in place, so keyboard focus and reading position survive a refresh.
 */
import { api } from './api';
import { changeList, editList } from './changes';
import { decidersFacts } from './deciders';
import { every, facts, h } from './dom';
import { decisionHeading } from './decision-heading';
import { whyBesideChanges } from './change-words';
import { targetOf } from './screen-marks';
import { screenView } from './screens';
import { typingFocus } from './typing-focus';
import { actionInWords, ago, expiry } from './words';
import type { Approval, ListPage, Run, StagedEdit } from './api-types';
import type { PageContext } from './page';

/** How often the inbox asks: well inside the two seconds an approver may wait to see a new write. */
const POLL_MS = 1000;
/** An approval closer than this to its expiry is marked. */
const SOON_MS = 5 * 60 * 1000;

const runs: Map<string, Promise<Run>> = new Map();

/**
 * The run behind a waiting action (goal, earlier steps), through the console's approval route, so
 * an approver who may not read runs still sees what the agent is doing.
 */
export function runOf(approval: Approval, runId: string) {
  let run = runs.get(runId);
  if (!run) {
    run = api(`/api/console/approvals/${approval.id}/run`);
    run.catch(() => runs.delete(runId));
    runs.set(runId, run);
  }
  return run;
}

function inboxItem(approval: Approval, ctx: PageContext) {
  const words = actionInWords(approval.action, approval.why, { where: false });
  // The decision in one sentence, as the approval page's heading: the system, the action and what
  // it stores (the record it opened); the system and a typing's field once the run says them.
  const heading = (system: string | null | undefined, edit: StagedEdit | null) =>
    decisionHeading({
      system,
      action: approval.action,
      why: approval.why,
      changes: approval.changes,
      edit,
    });
  const link = h(
    'a',
    { href: `/console/approvals/${approval.id}` },
    ...heading(approval.system, null),
  );
  const goal = h('span', { class: 'goal' }, '…');
  const age = h('span');
  const expires = h('span');
  const thumb = h('div', { class: 'inbox-thumb' });
  // A held typing's before → after (the field's value and whether the text replaces it), as on
  // its approval page: the field is the held step's, which the run says.
  const edit = h('div', { class: 'inbox-edit' });
  const deciders = decidersFacts();
  const runLink = ctx.can('agents.operate') || ctx.can('audit.read');
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
        [
          'Step',
          runLink && approval.run_id
            ? [
                `${approval.step} `,
                h('a', { href: `/console/runs/${approval.run_id}` }, '(follow the run)'),
              ]
            : String(approval.step),
        ],
        ['Why held', whyBesideChanges(approval.why, approval.changes)],
        ['Run started by', approval.requested_by],
        ['Waiting', age],
        ['Expires', expires],
        ...deciders.rows,
      ]),
    ),
  );
  const runId = approval.run_id;
  // A waiting action with no run says its goal itself, and has no screen to show.
  if (runId === null) goal.textContent = `“${approval.goal ?? ''}”`;
  else
    runOf(approval, runId).then(
      (run) => {
        goal.textContent = `“${run.goal}”`;
        const held = run.steps?.find((st) => st.n === approval.step);
        link.replaceChildren(...heading(run.system ?? approval.system, held?.edit ?? null));
        if (approval.action.action === 'type' && typeof approval.action.text === 'string') {
          const list = editList(held?.edit, approval.action.text, 'h3', {
            id: `edit-${approval.id}`,
            explain: false,
          });
          if (list) edit.replaceChildren(list);
        }
        thumb.append(
          screenView({
            runId,
            n: approval.step,
            width: run.steps?.find((st) => st.n === approval.step)?.width ?? null,
            height: run.steps?.find((st) => st.n === approval.step)?.height ?? null,
            action: approval.action,
            why: approval.why,
            focus:
              approval.action.action === 'type'
                ? typingFocus(run.steps ?? [], approval.step)
                : null,
            size: 'thumb',
            // The same frame outside the target as on the approval page.
            target: targetOf(held),
            alt: `Screen at step ${approval.step}, action marked`,
          }),
        );
      },
      (error: unknown) => {
        goal.textContent = `(not available: ${error instanceof Error ? error.message : String(error)})`;
      },
    );
  /**
   * @param latest the approval as the last poll saw it (an escalation adds deciders)
   */
  const update = (now: number, latest: Approval) => {
    deciders.update(latest, now);
    age.textContent = ago(approval.created_at, now);
    expires.textContent = expiry(approval.expires_at, now);
    li.classList.toggle('expiring', Date.parse(approval.expires_at) - now < SOON_MS);
  };
  return { li, words, update };
}

export function renderInbox(main: HTMLElement, ctx: PageContext) {
  const status = h('p', { class: 'inbox-status' }, 'Looking for waiting actions…');
  const problem = h('p', { class: 'error', role: 'alert' });
  const list = h('ol', { class: 'inbox', 'aria-label': 'Waiting actions, oldest first' });
  const more = h('p', { class: 'help' });
  main.append(
    h('h1', {}, 'Waiting for approval'),
    h(
      'p',
      { class: 'lead' },
      `Held writes in tenant ${ctx.me.tenant} that you may decide, oldest first (an agent may name who decides its writes). The list updates by itself every second. Open one to see the screen it would hit and decide.`,
    ),
    status,
    problem,
    list,
    more,
  );

  const rows: Map<string, ReturnType<typeof inboxItem>> = new Map();
  let shownCount = -1;
  void every(POLL_MS, ctx.signal, async () => {
    let page: ListPage<Approval>;
    try {
      page = await api('/api/approvals?limit=200', { signal: ctx.signal });
      problem.textContent = '';
    } catch (error) {
      if (ctx.signal.aborted) return false;
      problem.textContent = `Could not refresh the inbox (${error instanceof Error ? error.message : String(error)}). Trying again.`;
      return;
    }
    const now = Date.now();
    const ids = new Set(page.items.map((a) => a.id));
    for (const [id, row] of rows) {
      if (!ids.has(id)) {
        row.li.remove();
        rows.delete(id);
      }
    }
    const added: string[] = [];
    let previous: ChildNode | null = null;
    for (const approval of page.items) {
      let row = rows.get(approval.id);
      if (!row) {
        row = inboxItem(approval, ctx);
        rows.set(approval.id, row);
        if (shownCount >= 0) added.push(row.words);
      }
      const wanted: ChildNode | null = previous ? previous.nextSibling : list.firstChild;
      if (row.li !== wanted) list.insertBefore(row.li, wanted);
      row.update(now, approval);
      previous = row.li;
    }
    const count = page.items.length;
    if (count !== shownCount) {
      status.textContent =
        count === 0
          ? 'Nothing is waiting for approval.'
          : `${count} ${count === 1 ? 'action waits' : 'actions wait'} for a decision.`;
      shownCount = count;
    }
    if (added.length) ctx.announce(`New waiting action: ${added.join('; ')}`);
    more.textContent = page.next_cursor
      ? 'Showing the oldest 200; decide on these to see the rest.'
      : '';
  });
}
