/**
 * For admins: each agent's governance state at a glance, from the config in force and its
 * switches: the planner by name, whether and where writes wait for a person (approve_at), the
 * four-eyes rule, who approves, the screen rules, the kill switch and the tenant's pause, the
 * script content granted to an agent whose writes need no approval (by whom, when), and what was
 * loosened, when and by whom (the audit log's `governance.weaken`, for those who may read it).
 * What a card says is governance-view.ts; this file reads the state and draws the cards.
 */
import { api } from './api';
import { facts, h } from './dom';
import {
  agentView,
  plannerNames,
  type FactValue,
  type GovernanceState,
  type GovernedAgent,
  type Weakening,
} from './governance-view';
import type {
  Catalog,
  ComputerUseConfig,
  KillSwitch,
  ListPage,
  Pause,
  ScriptedPlannerPage,
} from './api-types';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Reads what the section shows: the config in force, the switches, the names, what was loosened. */
async function readState(signal: AbortSignal, canReadAudit: boolean): Promise<GovernanceState> {
  const [config, pause, scripted, catalog] = await Promise.all([
    api<ComputerUseConfig>('/api/admin/computer-use', { signal }),
    api<Pause>('/api/admin/pause', { signal }),
    api<ScriptedPlannerPage>('/api/planners/scripted?limit=200', { signal }),
    api<Catalog>('/api/planners', { signal }),
  ]);
  const weakened = canReadAudit
    ? (await api<ListPage<Weakening>>('/api/audit?type=governance.weaken&limit=200', { signal }))
        .items
    : null;
  const agents = await Promise.all(
    Object.entries(config.agents ?? {}).map(async ([name, agent]): Promise<GovernedAgent> => ({
      name,
      config: agent,
      kill: await api<KillSwitch>(`/api/admin/agents/${encodeURIComponent(name)}/kill-switch`, {
        signal,
      }),
    })),
  );
  return {
    agents,
    grants: config.script_grants,
    pause,
    names: plannerNames(catalog, scripted),
    weakened,
  };
}

/** A fact's value as nodes: a line, or a list. */
function factNode(value: FactValue) {
  if (typeof value === 'string') return value;
  return h('ul', { class: value.list }, ...value.items.map((item) => h('li', {}, item)));
}

/** One agent's card: its name, whether it may act, and its governance as facts. */
function agentCard(state: GovernanceState, agent: GovernedAgent) {
  const v = agentView(state, agent);
  return h(
    'article',
    { class: 'governance', 'data-agent': v.name },
    h(
      'h3',
      {},
      v.name,
      ' ',
      h(
        'span',
        { class: v.stopped ? 'status status-stopped' : 'status status-running' },
        v.standing,
      ),
    ),
    facts(v.rows.map(([label, value]) => [label, factNode(value)])),
  );
}

/** The governance section of the admin page, loaded once. */
export function governanceSection(signal: AbortSignal, canReadAudit: boolean) {
  const list = h('div', { class: 'governance-list' });
  const problem = h('p', { class: 'error', role: 'alert' });
  readState(signal, canReadAudit)
    .then((state) => {
      const cards = state.agents.map((agent) => agentCard(state, agent));
      list.replaceChildren(...(cards.length ? cards : [h('p', {}, 'No agents are configured.')]));
    })
    .catch((error: unknown) => {
      if (signal.aborted) return;
      problem.textContent = `Could not load the agents' governance: ${messageOf(error)}`;
    });
  return h(
    'section',
    { id: 'governance', 'aria-labelledby': 'governance-title' },
    h('h2', { id: 'governance-title' }, 'Governance of each agent'),
    problem,
    list,
  );
}
