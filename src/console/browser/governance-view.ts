/**
 * Each agent's governance as data: what the admin page's governance card says of the config in
 * force, the agent's kill switch, the tenant's pause and what was loosened. governance.ts reads
 * these and turns them into nodes. No DOM here, so the specs check every view without a browser
 * (the console e2e tests check the nodes in Chromium).
 */
import { eventInWords } from './event-words';
import { clock, shown } from './words';
import type {
  AgentConfig,
  AuditEvent,
  Catalog,
  ComputerUseConfig,
  KillSwitch,
  Pause,
  ScriptedPlannerPage,
  ScriptGrant,
} from './api-types';

/** A `governance.weaken` event of the audit log, as the card reads it. */
export type Weakening = Pick<AuditEvent, 'at' | 'actor' | 'type' | 'details'>;

/** An agent of the config in force, and its kill switch. */
export interface GovernedAgent {
  name: string;
  config: AgentConfig;
  kill: KillSwitch;
}

/** Everything the governance section shows is drawn from this. */
export interface GovernanceState {
  /** The agents of the config in force, in its order. */
  agents: GovernedAgent[];
  /** The script content granted to agents whose writes need no approval, by agent. */
  grants: ComputerUseConfig['script_grants'] | undefined;
  pause: Pause;
  /** Planners' names by id: the catalog's and the scripted planners'. */
  names: Map<string, string>;
  /** What was loosened; null: not theirs to read (no audit.read). */
  weakened: Weakening[] | null;
}

/** The planners' names by id, from the catalog and the scripted planners. */
export function plannerNames(catalog: Catalog, scripted: ScriptedPlannerPage) {
  return new Map([...catalog.planners, ...scripted.items].map((p) => [p.id, p.name]));
}

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

function approversInWords(a: AgentConfig) {
  const approvers = a.approvers ?? [];
  if (!approvers.length) return 'anyone with agents.approve';
  const escalates = a.escalate_to?.length ? `; escalates to ${a.escalate_to.join(', ')}` : '';
  return `${approvers.join(', ')}${escalates}`;
}

function killInWords(kill: KillSwitch) {
  return kill.engaged
    ? `engaged by ${kill.updated_by ?? '?'} at ${clock(kill.updated_at)}: ${kill.reason ?? ''}`
    : `released${kill.updated_by ? ` (last set by ${kill.updated_by} at ${clock(kill.updated_at)})` : ''}`;
}

function pauseInWords(pause: Pause) {
  return pause.paused
    ? `paused by ${pause.updated_by ?? '?'} at ${clock(pause.updated_at)}: ${pause.reason ?? ''}`
    : 'not paused';
}

/** A fact's value: a line, or a list (its class and items). */
export type FactValue = string | { list: string; items: string[] };

/** What was loosened on this agent, when and by whom; a line when there is no list to show. */
function loosenedView(name: string, weakened: Weakening[] | null): FactValue {
  if (weakened === null) {
    return 'reading it needs audit.read (the audit log’s governance.weaken events)';
  }
  const mine = weakened.filter((e) => e.details.agent === name);
  if (!mine.length) return 'never';
  return {
    list: 'weakened',
    items: mine.map((e) => `${clock(e.at)} by ${e.actor}: ${eventInWords(e)}`),
  };
}

/**
 * One agent's card: its name, whether it may act (its kill switch, the tenant's pause), and its
 * facts, label by value.
 */
export function agentView(state: GovernanceState, agent: GovernedAgent) {
  const { name, config: a, kill } = agent;
  const { pause } = state;
  const rules = a.screen_rules ?? [];
  const rows: Array<[string, FactValue]> = [
    ['Planner', plannerName(a.planner, state.names)],
    ['Writes', writesInWords(a)],
  ];
  if (a.require_write_approval === false && scripted(a.planner)) {
    rows.push(['Script granted', grantInWords(state.grants?.[name])]);
  }
  rows.push(
    [
      'Four-eyes',
      a.four_eyes === false
        ? 'off: the person who starts a run may approve its writes'
        : 'on: the person who starts a run cannot approve its writes',
    ],
    ['Approvers', approversInWords(a)],
    [
      'Screen rules',
      rules.length ? { list: 'rules', items: rules.map((r) => screenRuleInWords(r)) } : 'none',
    ],
    ['Kill switch', killInWords(kill)],
    ['Pause (every agent)', pauseInWords(pause)],
    ['Loosened', loosenedView(name, state.weakened)],
  );
  return {
    name,
    stopped: kill.engaged || pause.paused,
    standing: kill.engaged ? 'kill switch engaged' : pause.paused ? 'paused' : 'may act',
    rows,
  };
}
