// @ts-check
/**
 * For admins: the tenant's agents (inventory.js), and its pause (DESIGN §4), one switch for every agent. Pausing stops runs going
 * before their next step or send (they end `killed`) and keeps queued runs waiting; it needs a
 * reason, which the audit trail keeps.
 */
import { api } from './api.js';
import { facts, h } from './dom.js';
import { inventoryTable } from './inventory.js';
import { clock } from './words.js';

/** @typedef {{paused: boolean, reason: string | null, updated_by: string | null, updated_at: string | null}} Pause */

/** @type {import('./app.js').Page} */
export async function renderAdmin(main, ctx) {
  const state = h('div', { id: 'pause-state' });
  const problem = h('p', { class: 'error', role: 'alert' });
  const reason = /** @type {HTMLInputElement} */ (
    h('input', { id: 'pause-reason', name: 'reason', type: 'text', maxlength: 500, size: 60 })
  );
  const button = /** @type {HTMLButtonElement} */ (
    h('button', { type: 'submit', id: 'pause-button' })
  );
  const form = h(
    'form',
    { class: 'pause' },
    h('p', {}, h('label', { for: 'pause-reason' }, 'Reason'), ' ', reason),
    h('p', {}, button),
  );
  main.append(
    h('h1', {}, 'Admin'),
    inventoryTable(ctx.signal),
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

  /** @param {Pause} pause */
  function show(pause) {
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
        const pause = /** @type {Pause} */ (
          await api('/api/admin/pause', {
            method: 'PUT',
            json: { paused, reason: reason.value.trim() || undefined },
            signal: ctx.signal,
          })
        );
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
    show(/** @type {Pause} */ (await api('/api/admin/pause', { signal: ctx.signal })));
  } catch (error) {
    if (ctx.signal.aborted) return;
    problem.textContent = `Could not load the pause: ${error instanceof Error ? error.message : String(error)}`;
  }
}
