/**
 * The inventory of agents as data: what each row of the admin page's agents table says of an
 * agent of the config in force (`GET /api/admin/inventory`). inventory.ts reads it and turns the
 * rows into nodes. No DOM here, so the specs check every view without a browser (the console e2e
 * tests check the nodes in Chromium).
 */
import { clock, duration, statusInWords } from './words';
import type { InventoryAgent, InventoryPlanner, RunWindow } from './api-types';

/** The table's columns, in order. */
export const INVENTORY_COLUMNS = [
  'Agent',
  'System',
  'Screen host',
  'Planner',
  'Write approval',
  'Last run',
  'Last 7 days',
  'Last 30 days',
  'Time to decide (30 days)',
];

export function plannerInWords(planner: InventoryPlanner) {
  if (planner.kind === 'scripted') return `scripted (${planner.id})`;
  if (planner.kind === 'catalog') return planner.id;
  if (planner.kind === 'model') return `${planner.provider} ${planner.model}`;
  return "the deployment's default model";
}

export function approvalInWords(mode: InventoryAgent['write_approval']) {
  if (!mode.require_write_approval) return 'none: writes act straight away';
  return mode.approve_at === 'commit' ? 'at each commit (typing staged)' : 'every write';
}

/** `3 runs · 67% of 3 ended done`, or `3 runs · none ended`. @param w */
export function windowInWords(w: RunWindow) {
  const runs = `${w.runs} run${w.runs === 1 ? '' : 's'}`;
  if (w.success_rate === null) return w.runs ? `${runs} · none ended` : runs;
  return `${runs} · ${Math.round(w.success_rate * 100)}% of ${w.ended} ended done`;
}

/** One agent's row: its cells in words, and its last run (a link to it, when it ended). */
export function inventoryRow(a: InventoryAgent) {
  const median = a.approvals_30d.median_seconds_to_decide;
  return {
    agent: a.agent,
    system: a.system ?? '',
    screenHost: a.screen_host,
    planner: plannerInWords(a.planner),
    approval: approvalInWords(a.write_approval),
    lastRun: a.last_run
      ? {
          href: `/console/runs/${a.last_run.id}`,
          status: statusInWords(a.last_run),
          ended: a.last_run.ended_at ? clock(a.last_run.ended_at) : null,
        }
      : null,
    runs7: windowInWords(a.runs_7d),
    runs30: windowInWords(a.runs_30d),
    decide:
      median === null
        ? 'no decisions'
        : `${duration(median * 1000)} (median of ${a.approvals_30d.decided})`,
  };
}
