/**
 * The admin page's own sections as data: the tenant's pause and the planner catalog (what each
 * shows of the state it read). admin.ts turns these into nodes and wires the pause's form; the
 * agents, their governance and oversight have views of their own (inventory-view.ts,
 * governance-view.ts, oversight-view.ts). No DOM here, so the specs check every view without a
 * browser (the console e2e tests check the nodes in Chromium).
 */
import { clock } from './words';
import type { Catalog, CatalogPlanner, Pause } from './api-types';

export function pauseLead(tenant: string) {
  return `One switch for every agent of tenant ${tenant}: paused, no agent sends another action (runs going stop before their next step or send; queued runs wait) until someone resumes.`;
}

/**
 * Where the pause stands (its line, its facts) and what the form does next: pause (a reason
 * needed) or resume.
 */
export function pauseView(pause: Pause) {
  return {
    className: pause.paused ? 'status status-stopped' : 'status status-running',
    text: pause.paused ? 'Paused' : 'Not paused',
    facts: [
      ['Reason', pause.reason ?? ''],
      ['By', pause.updated_by ?? ''],
      ['When', pause.updated_at ? clock(pause.updated_at) : ''],
    ] as Array<[string, string]>,
    button: pause.paused ? 'Resume every agent' : 'Pause every agent',
    /** What pressing the button asks for. */
    next: !pause.paused,
    reasonRequired: !pause.paused,
  };
}

/** What is announced once the pause was set. */
export function pausedNews(pause: Pause) {
  return pause.paused ? 'Every agent is paused.' : 'The agents may act again.';
}

/** The line over the catalog: who changes it, the default planner and the tenant's tags. */
export function catalogLead(catalog: Catalog) {
  return `What an agent's planner may name for you (only the deployment operator changes it). Default: ${catalog.default ?? 'none'}. Your tags: ${catalog.tags.length ? catalog.tags.join(', ') : 'none'}.`;
}

/** The catalog's columns. */
export const CATALOG_COLUMNS = ['Planner', 'Runs', 'Available', 'Why'];

/** One planner of the catalog: where it runs, whether it sees the screen, available or not and why. */
export function catalogRow(p: CatalogPlanner) {
  return {
    id: p.id,
    name: p.name,
    className: p.available ? 'available' : 'unavailable',
    runs: [
      p.runs === 'remote' ? `remote${p.serving ? ', serving' : ', not serving'}` : 'platform',
      p.pixels ? ', sees the screen' : '',
    ],
    available: p.available ? 'yes' : 'no',
    why: p.why,
  };
}
