/**
 * For admins: the tenant's agents (inventory.ts) and each one's governance (governance.ts), the
 * planner catalog (which planners the admin may name, and why: docs/models.md), and its pause
 * (docs/step-flow.md), one switch for every agent. Pausing stops runs going before their next step or
 * send (they end `killed`) and keeps queued runs waiting; it needs a reason, which the audit trail
 * keeps. What the pause and the catalog show of what was read is admin-view.ts.
 */
import { api } from './api';
import { facts, h, labelCells } from './dom';
import { governanceSection } from './governance';
import { inventoryTable } from './inventory';
import { oversightSection } from './oversight';
import {
  CATALOG_COLUMNS,
  catalogLead,
  catalogRow,
  pausedNews,
  pauseLead,
  pauseView,
} from './admin-view';
import type { PageContext } from './page';
import type { Catalog, CatalogPlanner, Pause } from './api-types';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** One planner of the catalog as a row. */
function plannerRow(planner: CatalogPlanner) {
  const p = catalogRow(planner);
  return h(
    'tr',
    { 'data-planner': p.id, class: p.className },
    h('th', { scope: 'row' }, h('code', {}, p.id), h('div', {}, p.name)),
    h('td', {}, ...p.runs),
    h('td', {}, p.available),
    h('td', {}, p.why),
  );
}

/** The catalog as a table, loaded once: each planner available or not, and why. */
function catalogSection(signal: AbortSignal) {
  const body = h('tbody');
  const lead = h('p', { class: 'lead' });
  const problem = h('p', { class: 'error', role: 'alert' });
  const table = h(
    'table',
    { class: 'cards' },
    h('thead', {}, h('tr', {}, ...CATALOG_COLUMNS.map((t) => h('th', { scope: 'col' }, t)))),
    body,
  );
  api<Catalog>('/api/planners', { signal })
    .then((catalog) => {
      lead.textContent = catalogLead(catalog);
      body.replaceChildren(...catalog.planners.map(plannerRow));
      labelCells(table);
    })
    .catch((error: unknown) => {
      if (signal.aborted) return;
      problem.textContent = `Could not load the planners: ${messageOf(error)}`;
    });
  return h('section', { id: 'planner-catalog' }, h('h2', {}, 'Planners'), lead, problem, table);
}

/** The pause's form: a reason and the one button, which pauses or resumes. */
function pauseForm() {
  const reason = h('input', {
    id: 'pause-reason',
    name: 'reason',
    type: 'text',
    maxlength: 500,
    size: 60,
  });
  const button = h('button', { type: 'submit', id: 'pause-button' });
  const form = h(
    'form',
    { class: 'pause' },
    h('p', {}, h('label', { for: 'pause-reason' }, 'Reason'), ' ', reason),
    h('p', {}, button),
  );
  return { form, reason, button };
}

export async function renderAdmin(main: HTMLElement, ctx: PageContext) {
  const standing = h('div', { id: 'pause-state' });
  const problem = h('p', { class: 'error', role: 'alert' });
  const { form, reason, button } = pauseForm();
  main.append(
    h('h1', {}, 'Admin'),
    inventoryTable(ctx.signal),
    governanceSection(ctx.signal, ctx.can('audit.read')),
    catalogSection(ctx.signal),
    oversightSection(ctx.signal),
    h('h2', {}, 'Pause'),
    h('p', { class: 'lead' }, pauseLead(ctx.me.tenant)),
    standing,
    problem,
    form,
  );

  /** The pause as last read or set: where it stands, and what the form does next. */
  let pause: Pause | null = null;
  const draw = () => {
    if (!pause) return;
    const v = pauseView(pause);
    standing.replaceChildren(h('p', { class: v.className }, v.text), facts(v.facts));
    button.textContent = v.button;
    reason.required = v.reasonRequired;
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!pause) return;
    const paused = pauseView(pause).next;
    void (async () => {
      try {
        pause = await api<Pause>('/api/admin/pause', {
          method: 'PUT',
          json: { paused, reason: reason.value.trim() || undefined },
          signal: ctx.signal,
        });
        problem.textContent = '';
        reason.value = '';
        draw();
        ctx.announce(pausedNews(pause));
      } catch (error) {
        if (ctx.signal.aborted) return;
        problem.textContent = messageOf(error);
      }
    })();
  });

  try {
    pause = await api<Pause>('/api/admin/pause', { signal: ctx.signal });
    draw();
  } catch (error) {
    if (ctx.signal.aborted) return;
    problem.textContent = `Could not load the pause: ${messageOf(error)}`;
  }
}
