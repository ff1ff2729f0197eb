/**
 * For admins: the tenant's agents (inventory.ts) and each one's governance (governance.ts), the
 * planner catalog (which planners the admin may name, and why: docs/models.md), and its pause
 * (docs/step-flow.md), one switch for every agent. Pausing stops runs going before their next step or
 * send (they end `killed`) and keeps queued runs waiting; it needs a reason, which the audit trail
 * keeps.
 */
import { api } from './api';
import { facts, h, labelCells } from './dom';
import { governanceSection } from './governance';
import { inventoryTable } from './inventory';
import { oversightSection } from './oversight';
import { clock } from './words';
import type { PageContext } from './page';
import type { Catalog, Pause } from './api-types';

/** The catalog as a table, loaded once: each planner available or not, and why. */
function catalogTable(signal: AbortSignal) {
  const body = h('tbody');
  const lead = h('p', { class: 'lead' });
  const problem = h('p', { class: 'error', role: 'alert' });
  const table = h(
    'table',
    { class: 'cards' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Planner'),
        h('th', { scope: 'col' }, 'Runs'),
        h('th', { scope: 'col' }, 'Available'),
        h('th', { scope: 'col' }, 'Why'),
      ),
    ),
    body,
  );
  const section = h(
    'section',
    { id: 'planner-catalog' },
    h('h2', {}, 'Planners'),
    lead,
    problem,
    table,
  );
  void (async () => {
    try {
      const catalog = await api<Catalog>('/api/planners', { signal });
      lead.textContent = `What an agent's planner may name for you (only the deployment operator changes it). Default: ${catalog.default ?? 'none'}. Your tags: ${catalog.tags.length ? catalog.tags.join(', ') : 'none'}.`;
      body.replaceChildren(
        ...catalog.planners.map((p) =>
          h(
            'tr',
            { 'data-planner': p.id, class: p.available ? 'available' : 'unavailable' },
            h('th', { scope: 'row' }, h('code', {}, p.id), h('div', {}, p.name)),
            h(
              'td',
              {},
              p.runs === 'remote'
                ? `remote${p.serving ? ', serving' : ', not serving'}`
                : 'platform',
              p.pixels ? ', sees the screen' : '',
            ),
            h('td', {}, p.available ? 'yes' : 'no'),
            h('td', {}, p.why),
          ),
        ),
      );
      labelCells(table);
    } catch (error) {
      if (signal.aborted) return;
      problem.textContent = `Could not load the planners: ${error instanceof Error ? error.message : String(error)}`;
    }
  })();
  return section;
}

export async function renderAdmin(main: HTMLElement, ctx: PageContext) {
  const state = h('div', { id: 'pause-state' });
  const problem = h('p', { class: 'error', role: 'alert' });
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
  main.append(
    h('h1', {}, 'Admin'),
    inventoryTable(ctx.signal),
    governanceSection(ctx.signal, ctx.can('audit.read')),
    catalogTable(ctx.signal),
    oversightSection(ctx.signal),
    h('h2', {}, 'Pause'),
    h(
      'p',
      { class: 'lead' },
      `One switch for every agent of tenant ${ctx.me.tenant}: paused, no agent sends another action (runs going stop before their next step or send; queued runs wait) until someone resumes.`,
    ),
    state,
    problem,
    form,
  );

  function show(pause: Pause) {
    state.replaceChildren(
      h(
        'p',
        { class: pause.paused ? 'status status-stopped' : 'status status-running' },
        pause.paused ? 'Paused' : 'Not paused',
      ),
      facts([
        ['Reason', pause.reason ?? ''],
        ['By', pause.updated_by ?? ''],
        ['When', pause.updated_at ? clock(pause.updated_at) : ''],
      ]),
    );
    button.textContent = pause.paused ? 'Resume every agent' : 'Pause every agent';
    button.dataset.pause = pause.paused ? 'false' : 'true';
    reason.required = !pause.paused;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const paused = button.dataset.pause === 'true';
    void (async () => {
      try {
        const pause = await api<Pause>('/api/admin/pause', {
          method: 'PUT',
          json: { paused, reason: reason.value.trim() || undefined },
          signal: ctx.signal,
        });
        problem.textContent = '';
        reason.value = '';
        show(pause);
        ctx.announce(pause.paused ? 'Every agent is paused.' : 'The agents may act again.');
      } catch (error) {
        if (ctx.signal.aborted) return;
        problem.textContent = error instanceof Error ? error.message : String(error);
      }
    })();
  });

  try {
    show(await api<Pause>('/api/admin/pause', { signal: ctx.signal }));
  } catch (error) {
    if (ctx.signal.aborted) return;
    problem.textContent = `Could not load the pause: ${error instanceof Error ? error.message : String(error)}`;
  }
}
