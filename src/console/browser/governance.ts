/**
 * For admins: each agent's governance state at a glance, from the config in force and its
 * switches: the planner by name, whether and where writes wait for a person (approve_at), the
 * four-eyes rule, who approves, the screen rules, the kill switch and the tenant's pause, the
 * script content granted to an agent whose writes need no approval (by whom, when), and what was
 * loosened, when and by whom (the audit log's `governance.weaken`, for those who may read it).
 */
import { api } from './api';
import { facts, h } from './dom';
import { eventInWords } from './event-words';
import { clock, shown } from './words';
import type {
  AgentConfig,
  Catalog,
  ComputerUseConfig,
  KillSwitch,
  Pause,
  ScriptedPlannerPage,
  ScriptGrant,
} from './api-types';

/**
 * A planner by name: a scripted planner's or the catalog's name, a model by provider and model.
 * @param names by id
 */
export function plannerName(planner: unknown, names: Map<string, string>) {
  if (planner === undefined || planner === null) {
    return "the deployment's default model";
  }
  if (typeof planner === 'string') {
    const name = names.get(planner);
    return name ? `${name} (${planner})` : planner;
  }
  const p = planner as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : '?');
  return `${text(p.provider)} ${text(p.model)}`;
}

/**
 * One screen rule in words: on which screens, which keys and labels count as what; or which
 * transaction codes typed into the command field are navigation. One case a shape of rule (the
 * service's table of them, actions/screen-rule-shapes.ts, is out of the browser's reach).
 */
export function screenRuleInWords(rule: Record<string, unknown>) {
  const field = rule.command_field as { transactions?: unknown } | undefined;
  if (field && Array.isArray(field.transactions)) {
    return `typing ${field.transactions.map((t) => String(t)).join(', ')} into the command field (and its Enter) is navigation`;
  }
  const entries = (map: unknown) =>
    map && typeof map === 'object'
      ? Object.entries(map as Record<string, unknown>).map(
          ([k, v]) => `${shown(k, 40)} → ${String(v)}`,
        )
      : [];
  const said = [...entries(rule.keys), ...entries(rule.labels)];
  const title =
    typeof rule.title === 'string' ? `on “${shown(rule.title, 60)}”` : 'on every screen';
  return `${title}: ${said.length ? said.join(', ') : 'nothing'}`;
}

function writesInWords(a: AgentConfig): string {
  if (a.require_write_approval === false) return 'act straight away: no person approves them';
  return a.approve_at === 'commit'
    ? 'held at each commit (a Save, an Enter); typing before it is staged and listed there'
    : 'every write held for a person (approve_at: every_write)';
}

function scripted(planner: unknown): boolean {
  return typeof planner === 'string' && planner.startsWith('scripted-');
}

/** The script content granted to an agent whose writes need no approval, and who granted it. */
function grantInWords(grant: ScriptGrant | undefined): string {
  if (!grant) return 'none: the script it names is not there, so its runs are refused';
  return `the content with SHA-256 ${grant.sha256}, granted by ${grant.granted_by} at ${clock(grant.granted_at)} (config version ${grant.version}); other content of the script waits for a person`;
}

/** The governance section of the admin page, loaded once. */
export function governanceSection(signal: AbortSignal, canReadAudit: boolean) {
  const list = h('div', { class: 'governance-list' });
  const problem = h('p', { class: 'error', role: 'alert' });
  const section = h(
    'section',
    { id: 'governance', 'aria-labelledby': 'governance-title' },
    h('h2', { id: 'governance-title' }, 'Governance of each agent'),
    problem,
    list,
  );
  void (async () => {
    try {
      const [config, pause, scripted, catalog] = await Promise.all([
        api<ComputerUseConfig>('/api/admin/computer-use', { signal }),
        api<Pause>('/api/admin/pause', { signal }),
        api<ScriptedPlannerPage>('/api/planners/scripted?limit=200', { signal }),
        api<Catalog>('/api/planners', { signal }),
      ]);
      const names = new Map([...catalog.planners, ...scripted.items].map((p) => [p.id, p.name]));
      let weakened: Array<{
        at: string;
        actor: string;
        type: string;
        details: Record<string, unknown>;
      }> | null = null;
      if (canReadAudit) {
        const page: { items: NonNullable<typeof weakened> } = await api(
          '/api/audit?type=governance.weaken&limit=200',
          { signal },
        );
        weakened = page.items;
      }
      const agents = Object.entries(config.agents ?? {});
      const cards = await Promise.all(
        agents.map(async ([name, a]) => {
          const kill: KillSwitch = await api(
            `/api/admin/agents/${encodeURIComponent(name)}/kill-switch`,
            {
              signal,
            },
          );
          return agentCard(name, a, kill, pause, names, weakened, config.script_grants?.[name]);
        }),
      );
      list.replaceChildren(...(cards.length ? cards : [h('p', {}, 'No agents are configured.')]));
    } catch (error) {
      if (signal.aborted) return;
      problem.textContent = `Could not load the agents' governance: ${error instanceof Error ? error.message : String(error)}`;
    }
  })();
  return section;
}

function agentCard(
  name: string,
  a: AgentConfig,
  kill: KillSwitch,
  pause: Pause,
  names: Map<string, string>,
  weakened: Array<{
    at: string;
    actor: string;
    type: string;
    details: Record<string, unknown>;
  }> | null,
  grant: ScriptGrant | undefined,
) {
  const rules = a.screen_rules ?? [];
  const approvers = a.approvers ?? [];
  const mine = (weakened ?? []).filter((e) => e.details.agent === name);
  const stopped = kill.engaged || pause.paused;
  return h(
    'article',
    { class: 'governance', 'data-agent': name },
    h(
      'h3',
      {},
      name,
      ' ',
      h(
        'span',
        { class: stopped ? 'status status-stopped' : 'status status-running' },
        kill.engaged ? 'kill switch engaged' : pause.paused ? 'paused' : 'may act',
      ),
    ),
    facts([
      ['Planner', plannerName(a.planner, names)],
      ['Writes', writesInWords(a)],
      ...(a.require_write_approval === false && scripted(a.planner)
        ? [['Script granted', grantInWords(grant)] as [string, string]]
        : []),
      [
        'Four-eyes',
        a.four_eyes === false
          ? 'off: the person who starts a run may approve its writes'
          : 'on: the person who starts a run cannot approve its writes',
      ],
      [
        'Approvers',
        approvers.length
          ? `${approvers.join(', ')}${a.escalate_to?.length ? `; escalates to ${a.escalate_to.join(', ')}` : ''}`
          : 'anyone with agents.approve',
      ],
      [
        'Screen rules',
        rules.length
          ? h('ul', { class: 'rules' }, ...rules.map((r) => h('li', {}, screenRuleInWords(r))))
          : 'none',
      ],
      [
        'Kill switch',
        kill.engaged
          ? `engaged by ${kill.updated_by ?? '?'} at ${clock(kill.updated_at)}: ${kill.reason ?? ''}`
          : `released${kill.updated_by ? ` (last set by ${kill.updated_by} at ${clock(kill.updated_at)})` : ''}`,
      ],
      [
        'Pause (every agent)',
        pause.paused
          ? `paused by ${pause.updated_by ?? '?'} at ${clock(pause.updated_at)}: ${pause.reason ?? ''}`
          : 'not paused',
      ],
      [
        'Loosened',
        weakened === null
          ? 'reading it needs audit.read (the audit log’s governance.weaken events)'
          : mine.length
            ? h(
                'ul',
                { class: 'weakened' },
                ...mine.map((e) => h('li', {}, `${clock(e.at)} by ${e.actor}: `, eventInWords(e))),
              )
            : 'never',
      ],
    ]),
  );
}
