/**
 * For admins: every agent of the tenant's config in force (`GET /api/admin/inventory`) as a table:
 * what it works on, where, with which planner and approval mode, its last run, and how its runs
 * and approvals have gone over 7 and 30 days. What a row says is inventory-view.ts.
 */
import { api } from './api';
import { h, labelCells } from './dom';
import { INVENTORY_COLUMNS, inventoryRow } from './inventory-view';
import type { Inventory, InventoryAgent } from './api-types';

function row(agent: InventoryAgent) {
  const v = inventoryRow(agent);
  const last = v.lastRun
    ? [
        h('a', { href: v.lastRun.href }, v.lastRun.status),
        v.lastRun.ended === null ? '' : h('div', { class: 'nowrap' }, v.lastRun.ended),
      ]
    : ['none yet'];
  return h(
    'tr',
    { 'data-agent': v.agent },
    h('th', { scope: 'row' }, v.agent),
    h('td', {}, v.system),
    h('td', {}, h('code', {}, v.screenHost)),
    h('td', {}, v.planner),
    h('td', {}, v.approval),
    h('td', {}, ...last),
    h('td', { class: 'num' }, v.runs7),
    h('td', { class: 'num' }, v.runs30),
    h('td', { class: 'num' }, v.decide),
  );
}

/** The inventory table, loaded once. */
export function inventoryTable(signal: AbortSignal) {
  const body = h('tbody');
  const problem = h('p', { class: 'error', role: 'alert' });
  const table = h(
    'table',
    { class: 'inventory cards' },
    h('caption', { class: 'visually-hidden' }, 'Agents of the config in force'),
    h('thead', {}, h('tr', {}, ...INVENTORY_COLUMNS.map((t) => h('th', { scope: 'col' }, t)))),
    body,
  );
  api<Inventory>('/api/admin/inventory', { signal })
    .then((inventory) => {
      body.replaceChildren(
        ...(inventory.agents.length
          ? inventory.agents.map(row)
          : [
              h(
                'tr',
                {},
                h('td', { colspan: INVENTORY_COLUMNS.length }, 'No agents are configured.'),
              ),
            ]),
      );
      labelCells(table);
    })
    .catch((error: unknown) => {
      if (signal.aborted) return;
      problem.textContent = `Could not load the agents: ${error instanceof Error ? error.message : String(error)}`;
    });
  return h('section', { id: 'inventory' }, h('h2', {}, 'Agents'), problem, table);
}
