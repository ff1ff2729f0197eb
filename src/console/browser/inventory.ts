/**
 * For admins: every agent of the tenant's config in force (`GET /api/admin/inventory`) as a table:
 * what it works on, where, with which planner and approval mode, its last run, and how its runs
 * and approvals have gone over 7 and 30 days.
 */
import { api } from './api';
import { h, labelCells } from './dom';
import { clock, duration, statusInWords } from './words';
import type { Inventory, InventoryAgent, InventoryPlanner, RunWindow } from './api-types';

function plannerInWords(planner: InventoryPlanner) {
  if (planner.kind === 'scripted') return `scripted (${planner.id})`;
  if (planner.kind === 'catalog') return planner.id;
  if (planner.kind === 'model') return `${planner.provider} ${planner.model}`;
  return "the deployment's default model";
}

function approvalInWords(mode: InventoryAgent['write_approval']) {
  if (!mode.require_write_approval) return 'none: writes act straight away';
  return mode.approve_at === 'commit' ? 'at each commit (typing staged)' : 'every write';
}

/** `3 runs · 67% of 3 ended done`, or `3 runs · none ended`. @param w */
function windowInWords(w: RunWindow) {
  const runs = `${w.runs} run${w.runs === 1 ? '' : 's'}`;
  if (w.success_rate === null) return w.runs ? `${runs} · none ended` : runs;
  return `${runs} · ${Math.round(w.success_rate * 100)}% of ${w.ended} ended done`;
}

function row(a: InventoryAgent) {
  const last = a.last_run
    ? [
        h('a', { href: `/console/runs/${a.last_run.id}` }, statusInWords(a.last_run)),
        a.last_run.ended_at ? h('div', { class: 'nowrap' }, clock(a.last_run.ended_at)) : '',
      ]
    : ['none yet'];
  const median = a.approvals_30d.median_seconds_to_decide;
  return h(
    'tr',
    { 'data-agent': a.agent },
    h('th', { scope: 'row' }, a.agent),
    h('td', {}, a.system ?? ''),
    h('td', {}, h('code', {}, a.screen_host)),
    h('td', {}, plannerInWords(a.planner)),
    h('td', {}, approvalInWords(a.write_approval)),
    h('td', {}, ...last),
    h('td', { class: 'num' }, windowInWords(a.runs_7d)),
    h('td', { class: 'num' }, windowInWords(a.runs_30d)),
    h(
      'td',
      { class: 'num' },
      median === null
        ? 'no decisions'
        : `${duration(median * 1000)} (median of ${a.approvals_30d.decided})`,
    ),
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
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...[
          'Agent',
          'System',
          'Screen host',
          'Planner',
          'Write approval',
          'Last run',
          'Last 7 days',
          'Last 30 days',
          'Time to decide (30 days)',
        ].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    body,
  );
  const section = h('section', { id: 'inventory' }, h('h2', {}, 'Agents'), problem, table);
  void (async () => {
    try {
      const inventory = await api<Inventory>('/api/admin/inventory', { signal });
      body.replaceChildren(
        ...(inventory.agents.length
          ? inventory.agents.map(row)
          : [h('tr', {}, h('td', { colspan: 9 }, 'No agents are configured.'))]),
      );
      labelCells(table);
    } catch (error) {
      if (signal.aborted) return;
      problem.textContent = `Could not load the agents: ${error instanceof Error ? error.message : String(error)}`;
    }
  })();
  return section;
}
