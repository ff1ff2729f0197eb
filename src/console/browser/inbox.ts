/**
 * The approvals inbox: every waiting action of the tenant that the signed-in person may decide,
 * oldest first, polled every second. The page is one state (inbox-view.ts says what each part
 * shows of it); inbox-item.ts draws a waiting action. Rows are kept and updated in place, so
 * keyboard focus and reading position survive a refresh.
 */
import { api } from './api';
import { every, h } from './dom';
import { inboxItem, type InboxItem } from './inbox-item';
import {
  inboxState,
  leadText,
  LIMIT,
  moreText,
  newsText,
  POLL_MS,
  problemText,
  rowsChange,
  statusText,
  type InboxState,
  type RunRead,
} from './inbox-view';
import type { Approval, ListPage, Run } from './api-types';
import type { PageContext } from './page';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const runs: Map<string, Promise<Run>> = new Map();

/**
 * The run behind a waiting action (goal, earlier steps), through the console's approval route, so
 * an approver who may not read runs still sees what the agent is doing. Read once a run while the
 * console is open (a failed read is tried again by the next row that asks).
 */
function runOf(approval: Approval, runId: string) {
  let run = runs.get(runId);
  if (!run) {
    run = api(`/api/console/approvals/${approval.id}/run`);
    run.catch(() => runs.delete(runId));
    runs.set(runId, run);
  }
  return run;
}

/** A new row; its run is read into the state and drawn once it answers. */
function newRow(state: InboxState, approval: Approval) {
  const row = inboxItem(approval, state.canReadRuns);
  const show = (read: RunRead) => {
    state.runs.set(approval.id, read);
    row.showRun(read);
  };
  // A waiting action with no run says its goal itself, and has no screen to show.
  if (approval.run_id !== null) {
    runOf(approval, approval.run_id).then(
      (run) => show({ run }),
      (error: unknown) => show({ error: messageOf(error) }),
    );
  }
  return row;
}

export function renderInbox(main: HTMLElement, ctx: PageContext) {
  const state = inboxState(ctx.me.tenant, ctx.can('agents.operate') || ctx.can('audit.read'));
  const status = h('p', { class: 'inbox-status' }, 'Looking for waiting actions…');
  const problem = h('p', { class: 'error', role: 'alert' });
  const list = h('ol', { class: 'inbox', 'aria-label': 'Waiting actions, oldest first' });
  const more = h('p', { class: 'help' });
  main.append(
    h('h1', {}, 'Waiting for approval'),
    h('p', { class: 'lead' }, leadText(state.tenant)),
    status,
    problem,
    list,
    more,
  );

  const rows: Map<string, InboxItem> = new Map();
  /**
   * Brings the list up to date with the state's page: the rows gone removed, the new ones added,
   * all in order and their times moved on. Answers the words of the waiting actions added.
   */
  const drawPage = (page: ListPage<Approval>, now: number) => {
    const change = rowsChange(rows.keys(), page.items);
    for (const id of change.gone) {
      rows.get(id)?.li.remove();
      rows.delete(id);
    }
    const added = change.added.map((approval) => {
      const row = newRow(state, approval);
      rows.set(approval.id, row);
      return row.words;
    });
    let previous: ChildNode | null = null;
    for (const approval of page.items) {
      const row = rows.get(approval.id)!;
      const wanted: ChildNode | null = previous ? previous.nextSibling : list.firstChild;
      if (row.li !== wanted) list.insertBefore(row.li, wanted);
      row.update(now, approval);
      previous = row.li;
    }
    const said = statusText(state);
    if (said !== null && status.textContent !== said) status.textContent = said;
    more.textContent = moreText(state);
    return added;
  };

  let polled = false;
  void every(POLL_MS, ctx.signal, async () => {
    try {
      state.page = await api<ListPage<Approval>>(`/api/approvals?limit=${LIMIT}`, {
        signal: ctx.signal,
      });
      state.problem = '';
    } catch (error) {
      if (ctx.signal.aborted) return false;
      state.problem = problemText(messageOf(error));
      problem.textContent = state.problem;
      return;
    }
    problem.textContent = state.problem;
    const news = newsText(drawPage(state.page, Date.now()));
    // The first answer fills the list: nothing in it is news.
    if (news && polled) ctx.announce(news);
    polled = true;
  });
}
