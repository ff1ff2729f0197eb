/** Recent runs of the tenant, newest first, for operators and auditors. */
import { api, query } from './api';
import { every, h, labelCells } from './dom';
import { clock, statusInWords } from './words';
import type { ListPage, Run } from './api-types';
import type { PageContext } from './page';

const STATUSES = ['', 'queued', 'running', 'awaiting_approval', 'completed', 'failed', 'stopped'];

export function renderRuns(main: HTMLElement, ctx: PageContext) {
  const status = ctx.search.get('status') ?? '';
  const select = h('select', { id: 'status', name: 'status' });
  for (const value of STATUSES) {
    const option = h('option', { value }, value ? value.replace('_', ' ') : 'any status');
    option.selected = value === status;
    select.append(option);
  }
  select.addEventListener('change', () =>
    ctx.navigate(`/console/runs${query({ status: select.value })}`),
  );
  const body = h('tbody');
  const problem = h('p', { class: 'error', role: 'alert' });
  const table = h(
    'table',
    { class: 'runs cards' },
    h('caption', { class: 'visually-hidden' }, 'Runs, newest first'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Goal', 'Agent', 'Status', 'Steps', 'Started by', 'Created'].map((t) =>
          h('th', { scope: 'col' }, t),
        ),
      ),
    ),
    body,
  );
  main.append(
    h('h1', {}, 'Runs'),
    h(
      'p',
      { class: 'lead' },
      `The latest runs of tenant ${ctx.me.tenant}, newest first. Updates every two seconds.`,
    ),
    h('p', { class: 'filters' }, h('label', { for: 'status' }, 'Show '), select),
    problem,
    table,
  );
  let shown = '';
  void every(2000, ctx.signal, async () => {
    let page: ListPage<Run>;
    try {
      page = await api(`/api/computer-use/runs${query({ limit: 50, status })}`, {
        signal: ctx.signal,
      });
      problem.textContent = '';
    } catch (error) {
      if (ctx.signal.aborted) return false;
      problem.textContent = `Could not load the runs: ${error instanceof Error ? error.message : String(error)}`;
      return;
    }
    const sig = JSON.stringify(page.items.map((r) => [r.id, r.status, r.end_reason, r.step_count]));
    if (sig === shown) return;
    shown = sig;
    const focused =
      document.activeElement instanceof HTMLAnchorElement
        ? document.activeElement.getAttribute('href')
        : null;
    body.replaceChildren(
      ...page.items.map((run) =>
        h(
          'tr',
          {},
          h('td', {}, h('a', { href: `/console/runs/${run.id}` }, run.goal)),
          h('td', {}, run.agent),
          h('td', {}, h('span', { class: `status status-${run.status}` }, statusInWords(run))),
          h('td', { class: 'num' }, run.step_count),
          h('td', {}, run.created_by),
          h('td', {}, clock(run.created_at)),
        ),
      ),
    );
    if (!page.items.length) body.append(h('tr', {}, h('td', { colspan: 6 }, 'No runs.')));
    labelCells(table);
    // A refresh must not take the keyboard focus away from the link the user was on.
    if (focused) {
      body.querySelector<HTMLAnchorElement>(`a[href="${CSS.escape(focused)}"]`)?.focus();
    }
  });
}
