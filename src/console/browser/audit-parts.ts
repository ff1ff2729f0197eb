/**
 * The audit page's nodes as small views over its state (audit-view.ts): the filter form, an
 * event's row, the events table, and `drawState`, which brings the lines that change up to date.
 */
import { facts, h } from './dom';
import {
  countText,
  EVENT_COLUMNS,
  eventView,
  KNOWN_TYPES,
  type AuditState,
  type FilterFields,
} from './audit-view';
import type { AuditEvent } from './api-types';

/** A labelled input, with its help under it. */
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

/**
 * The filter form, filled from `fields`; `read` answers what its fields hold now. The buttons
 * after the filters (`tools`) sit with them: the export takes the same filters.
 */
export function filterForm(fields: FilterFields, tools: HTMLElement[]) {
  const type = field(
    'type',
    'Type',
    { list: 'audit-types', autocomplete: 'off', pattern: '[a-z_][a-z0-9_.]*' },
    'Exact, or a prefix ending with a dot',
  );
  const runId = field('run_id', 'Run id', { autocomplete: 'off', spellcheck: 'false' });
  const since = field('since', 'From', { type: 'datetime-local' }, 'Your local time');
  const until = field('until', 'Until', { type: 'datetime-local' }, 'Not included');
  type.input.value = fields.type;
  runId.input.value = fields.run_id;
  since.input.value = fields.since;
  until.input.value = fields.until;
  const form = h(
    'form',
    { class: 'audit-filters', 'aria-label': 'Filter the audit log' },
    h('datalist', { id: 'audit-types' }, ...KNOWN_TYPES.map((t) => h('option', { value: t }))),
    type.el,
    runId.el,
    since.el,
    until.el,
    h(
      'div',
      { class: 'filter-actions' },
      h('button', { type: 'submit', class: 'primary' }, 'Show events'),
      h('a', { href: '/console/audit', class: 'button' }, 'Clear'),
      h('span', { class: 'spacer' }),
      ...tools,
    ),
  );
  const read = (): FilterFields => ({
    type: type.input.value,
    run_id: runId.input.value,
    since: since.input.value,
    until: until.input.value,
  });
  return { form, read };
}

/** One event: its place in the chain, when, what, who, which run and step, and its details. */
export function eventRow(event: AuditEvent) {
  const v = eventView(event);
  return h(
    'tr',
    { 'data-type': v.type },
    h('td', { class: 'num', 'data-label': '#' }, v.seq),
    h('td', { class: 'nowrap', 'data-label': 'Time' }, v.time),
    h('td', { 'data-label': 'Type' }, h('code', {}, v.type)),
    h('td', { 'data-label': 'Actor' }, v.actor),
    h(
      'td',
      { 'data-label': 'Run' },
      v.run ? h('a', { href: v.run.href, title: v.run.id }, v.run.short) : '—',
    ),
    h('td', { class: 'num', 'data-label': 'Step' }, v.step),
    h(
      'td',
      { 'data-label': 'What' },
      v.words,
      h(
        'details',
        {},
        h('summary', {}, 'Details'),
        h('pre', {}, v.details),
        facts([
          ['SHA-256', h('code', {}, v.sha256)],
          ['Previous', h('code', {}, v.prev)],
        ]),
      ),
    ),
  );
}

/** The events table around `body`. */
export function eventsTable(body: HTMLTableSectionElement) {
  return h(
    'table',
    { class: 'audit cards' },
    h('caption', { class: 'visually-hidden' }, 'Audit events, oldest first'),
    h('thead', {}, h('tr', {}, ...EVENT_COLUMNS.map((t) => h('th', { scope: 'col' }, t)))),
    body,
  );
}

/** Sets a live region's text only when it changed: setting the same text may be read out again. */
function say(el: HTMLElement, text: string) {
  if (el.textContent !== text) el.textContent = text;
}

/** The nodes that change with the page's state. */
export function auditParts() {
  return {
    chain: h('p', { class: 'chain', role: 'status' }),
    exported: h('p', { class: 'said', role: 'status' }),
    problem: h('p', { class: 'error', role: 'alert' }),
    count: h('p', { class: 'help', role: 'status' }),
    body: h('tbody'),
    more: h('button', { type: 'button', hidden: true }, 'Load more events'),
  };
}

export type AuditParts = ReturnType<typeof auditParts>;

/**
 * Brings the parts up to date with the state. The table's rows are kept (an open event's details
 * stay open): the events it lacks are appended.
 */
export function drawState(p: AuditParts, state: AuditState) {
  p.chain.className = state.chain.className;
  say(p.chain, state.chain.text);
  say(p.exported, state.exported);
  say(p.problem, state.problem);
  say(p.count, countText(state));
  p.body.append(...state.events.slice(p.body.rows.length).map(eventRow));
  p.more.hidden = !state.next;
}
