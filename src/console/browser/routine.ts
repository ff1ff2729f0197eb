/**
 * "Save as routine" on a completed run, for an admin (computer_use.admin): the run saved as a
 * scripted planner (POST /api/computer-use/runs/{id}/script), its typed values named as parameters
 * that each later run is started with. What was saved is said in words; the planner's id is shown
 * as text to put in an agent's `planner`.
 */
import { api } from './api';
import { h } from './dom';
import type { Run, ScriptedPlannerAnswer } from './api-types';

/** What saving a run as a routine answers: the scripted planner it made. */
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `order = 4711` lines as `{order: "4711"}`; a line without `=` is refused, naming it. */
export function parametersOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const at = line.indexOf('=');
    if (at < 1) throw new Error(`line ${i + 1} is not "name = value the run typed"`);
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** The button and its form, for a completed run. */
export function saveAsRoutine(run: Run, where: { said: HTMLElement; alert: HTMLElement }) {
  const open = h('button', { type: 'button' }, 'Save as routine');
  const name = h('input', {
    id: 'routine-name',
    name: 'name',
    type: 'text',
    required: true,
    maxlength: 200,
    size: 60,
    value: `Routine: ${[...run.goal].slice(0, 180).join('')}`.trim(),
  });
  const params = h('textarea', {
    id: 'routine-params',
    name: 'parameters',
    rows: 3,
    cols: 40,
  });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save the routine');
  const form = h(
    'form',
    { class: 'routine-form', hidden: true, 'aria-label': 'Save the run as a routine' },
    h('label', { for: 'routine-name' }, 'Routine name'),
    name,
    h('label', { for: 'routine-params' }, 'Parameters, one a line: name = value the run typed'),
    params,
    h(
      'p',
      { class: 'help' },
      'Each sent action becomes a step aimed at the element it hit, waiting for the screen it was sent on. A value named here is given at each run start instead.',
    ),
    save,
  );
  open.addEventListener('click', () => {
    form.hidden = !form.hidden;
    open.setAttribute('aria-expanded', String(!form.hidden));
    if (!form.hidden) name.focus();
  });
  open.setAttribute('aria-expanded', 'false');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    where.alert.textContent = '';
    let parameters: Record<string, string>;
    try {
      parameters = parametersOf(params.value);
    } catch (error) {
      where.alert.textContent = `Not saved: ${messageOf(error)}.`;
      return;
    }
    save.disabled = true;
    api<ScriptedPlannerAnswer>(`/api/computer-use/runs/${run.id}/script`, {
      method: 'POST',
      json: { name: name.value, ...(Object.keys(parameters).length ? { parameters } : {}) },
    }).then(
      (answer) => {
        const { id, script } = answer.planner;
        // The document leaves the stored script free-form beyond its steps: its parameters are a list.
        const parameters: unknown = script.parameters;
        const named =
          Array.isArray(parameters) && parameters.length
            ? `, parameters ${parameters.join(', ')}`
            : '';
        where.said.textContent = `Saved as routine ${id} (${script.steps.length} steps${named}). Name it in an agent's planner to replay it.`;
        form.hidden = true;
        open.setAttribute('aria-expanded', 'false');
        save.disabled = false;
      },
      (error: unknown) => {
        save.disabled = false;
        where.alert.textContent = `Not saved: ${messageOf(error)}.`;
      },
    );
  });
  return h('div', { class: 'routine' }, open, form);
}
