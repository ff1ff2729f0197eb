/**
 * The audit log: filters, the hash chain check, and the NDJSON export. The filters live in the
 * URL (`/console/audit?run_id=…`), so a run page can link to its events.
 */
import { api, apiBlob, query } from './api';
import { facts, h } from './dom';
import { eventInWords } from './event-words';
import { oversightSection } from './oversight';
import { clock } from './words';
import type { AuditEvent, ListPage, Verify } from './api-types';
import type { PageContext } from './page';

const KNOWN_TYPES = [
  'computer_use.',
  'computer_use.write.',
  'computer_use.start',
  'computer_use.write.held',
  'computer_use.write',
  'computer_use.write.refused',
  'computer_use.write.stale',
  'computer_use.write.unknown',
  'computer_use.write.receipt',
  'computer_use.action.refused',
  'computer_use.refused',
  'computer_use.end',
  'computer_use.config',
  'computer_use.kill_switch',
  'governance.weaken',
  'approval.decided',
];

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `2026-05-01T14:00` (a datetime-local field, local time) as ISO 8601 UTC for the API. */
function toIso(local: string) {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/** ISO 8601 back to a datetime-local value. */
function toLocal(iso: string | null) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
}

function field(id: string, label: string, attrs: Record<string, string>, help?: string) {
  const input = h('input', {
    id,
    name: id,
    ...attrs,
    'aria-describedby': help ? `${id}-help` : undefined,
  });
  return {
    input,
    el: h(
      'div',
      { class: 'field' },
      h('label', { for: id }, label),
      input,
      help ? h('p', { class: 'help', id: `${id}-help` }, help) : null,
    ),
  };
}

function eventRow(event: AuditEvent) {
  return h(
    'tr',
    { 'data-type': event.type },
    h('td', { class: 'num', 'data-label': '#' }, event.seq),
    h('td', { class: 'nowrap', 'data-label': 'Time' }, clock(event.at)),
    h('td', { 'data-label': 'Type' }, h('code', {}, event.type)),
    h('td', { 'data-label': 'Actor' }, event.actor),
    h(
      'td',
      { 'data-label': 'Run' },
      event.run_id
        ? h(
            'a',
            { href: `/console/runs/${event.run_id}`, title: event.run_id },
            event.run_id.slice(0, 8),
          )
        : '—',
    ),
    h('td', { class: 'num', 'data-label': 'Step' }, event.step ?? ''),
    h(
      'td',
      { 'data-label': 'What' },
      eventInWords(event),
      h(
        'details',
        {},
        h('summary', {}, 'Details'),
        h('pre', {}, JSON.stringify(event.details, null, 2)),
        facts([
          ['SHA-256', h('code', {}, event.sha256)],
          ['Previous', h('code', {}, event.prev_sha256)],
        ]),
      ),
    ),
  );
}

export function renderAudit(main: HTMLElement, ctx: PageContext) {
  const type = field(
    'type',
    'Type',
    { list: 'audit-types', autocomplete: 'off', pattern: '[a-z_][a-z0-9_.]*' },
    'Exact, or a prefix ending with a dot',
  );
  const runId = field('run_id', 'Run id', { autocomplete: 'off', spellcheck: 'false' });
  const since = field('since', 'From', { type: 'datetime-local' }, 'Your local time');
  const until = field('until', 'Until', { type: 'datetime-local' }, 'Not included');
  type.input.value = ctx.search.get('type') ?? '';
  runId.input.value = ctx.search.get('run_id') ?? '';
  since.input.value = toLocal(ctx.search.get('since'));
  until.input.value = toLocal(ctx.search.get('until'));

  const filters = () => ({
    type: type.input.value.trim(),
    run_id: runId.input.value.trim(),
    since: toIso(since.input.value),
    until: toIso(until.input.value),
  });

  const actionsRow = h(
    'div',
    { class: 'filter-actions' },
    h('button', { type: 'submit', class: 'primary' }, 'Show events'),
    h('a', { href: '/console/audit', class: 'button' }, 'Clear'),
  );
  const form = h(
    'form',
    { class: 'audit-filters', 'aria-label': 'Filter the audit log' },
    h('datalist', { id: 'audit-types' }, ...KNOWN_TYPES.map((t) => h('option', { value: t }))),
    type.el,
    runId.el,
    since.el,
    until.el,
    actionsRow,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    ctx.navigate(`/console/audit${query(filters())}`);
  });

  const chain = h('p', { class: 'chain', role: 'status' });
  const verify = h('button', { type: 'button' }, 'Check the hash chain');
  verify.addEventListener('click', () => {
    verify.disabled = true;
    chain.className = 'chain';
    chain.textContent = 'Checking every event of the tenant…';
    api<Verify>('/api/audit/verify').then(
      (result) => {
        verify.disabled = false;
        chain.className = `chain ${result.ok ? 'chain-ok' : 'chain-bad'}`;
        chain.textContent = result.ok
          ? `Chain ok: all ${result.checked} events of tenant ${ctx.me.tenant} are intact and in order. Head SHA-256 ${result.head_sha256.slice(0, 16)}…`
          : `Chain broken: event ${result.first_bad_id ?? '?'} was changed, removed or reordered (${result.checked - 1} events before it are intact).`;
      },
      (error: unknown) => {
        verify.disabled = false;
        chain.className = 'chain chain-bad';
        chain.textContent = `Could not check the chain: ${messageOf(error)}`;
      },
    );
  });

  const exported = h('p', { class: 'said', role: 'status' });
  const exportButton = h('button', { type: 'button' }, 'Export as NDJSON');
  exportButton.addEventListener('click', () => {
    exportButton.disabled = true;
    exported.textContent = 'Exporting…';
    apiBlob(`/api/audit${query(filters())}`, { accept: 'application/x-ndjson' }).then(
      async (blob) => {
        const lines = (await blob.text()).split('\n').filter(Boolean).length;
        const url = URL.createObjectURL(blob);
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        const a = h('a', { href: url, download: `warden-audit-${ctx.me.tenant}-${stamp}.ndjson` });
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
        exportButton.disabled = false;
        exported.textContent = `Exported ${lines} events (${Math.ceil(blob.size / 1024)} KB), one JSON object a line.`;
      },
      (error: unknown) => {
        exportButton.disabled = false;
        exported.textContent = `Could not export: ${messageOf(error)}`;
      },
    );
  });

  // The tools sit with the filters: the export takes the same filters; the check covers the tenant.
  actionsRow.append(h('span', { class: 'spacer' }), verify, exportButton);

  const body = h('tbody');
  const count = h('p', { class: 'help', role: 'status' });
  const problem = h('p', { class: 'error', role: 'alert' });
  const moreButton = h('button', { type: 'button', hidden: true }, 'Load more events');
  main.append(
    h('h1', {}, 'Audit log'),
    h(
      'p',
      { class: 'lead' },
      `Every event of tenant ${ctx.me.tenant} in chain order: each carries the SHA-256 of the one before, so a changed or deleted event breaks the chain.`,
    ),
    form,
    chain,
    exported,
    problem,
    count,
    h(
      'table',
      { class: 'audit cards' },
      h('caption', { class: 'visually-hidden' }, 'Audit events, oldest first'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['#', 'Time', 'Type', 'Actor', 'Run', 'Step', 'What'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      body,
    ),
    moreButton,
  );
  // An auditor sees how approvers decide too; an admin has it on the Admin page.
  if (!ctx.can('computer_use.admin')) main.append(oversightSection(ctx.signal));

  let shown = 0;
  const load = async (cursor: string | null) => {
    moreButton.disabled = true;
    try {
      const page: ListPage<AuditEvent> = await api(
        `/api/audit${query({ ...filters(), limit: 100, cursor })}`,
        {
          signal: ctx.signal,
        },
      );
      problem.textContent = '';
      body.append(...page.items.map(eventRow));
      shown += page.items.length;
      count.textContent = shown
        ? `${shown} events${page.next_cursor ? ' so far' : ''}.`
        : 'No events match.';
      moreButton.hidden = !page.next_cursor;
      moreButton.disabled = false;
      moreButton.onclick = () => void load(page.next_cursor);
    } catch (error) {
      if (ctx.signal.aborted) return;
      moreButton.disabled = false;
      problem.textContent = `Could not read the audit log: ${messageOf(error)}`;
    }
  };
  void load(null);
}
