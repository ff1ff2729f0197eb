import { canonicalJson } from '../../audit/canonical-json';
import {
  AGENT_DEFAULTS,
  type AgentConfig,
  type ComputerUseConfig,
  type PlannerConfig,
  type Rect,
  WEAKENING_CONTROLS,
  type WeakeningControl,
} from './agent-config';
import { AGENT_FIELD_SPECS } from './agent-fields';
import { screenRuleLoosenings } from './screen-rule-effect';
import type { ScriptGrants } from './script-grants';

/**
 * Weakening (docs/security.md): a config change that lets more happen without a person. Each one needs
 * `governance.weaken` and a reason, and is audited `governance.weaken` with its from → to. Pure: the
 * old and the new config in, the weakenings out.
 */

/** The reference screen ignore and redact regions are measured against (docs/security.md). */
export const REFERENCE_SCREEN = { width: 1024, height: 768 } as const;
/** Ignore or redact regions covering more than this share of the reference screen are a weakening. */
export const IGNORE_REGIONS_SHARE = 0.02;

/** One agent's control loosened: `four_eyes` true → false. */
export interface Weakening {
  agent: string;
  control: WeakeningControl;
  from: unknown;
  to: unknown;
  /** What in it loosens, in words, where a control says more than its from → to (screen rules). */
  entries?: string[];
  /**
   * The content of the script the agent's planner names, as granted before and as it is now
   * (SHA-256; null: no script), where either side names one.
   */
  script_sha256?: { from: string | null; to: string | null };
}

/**
 * An agent as the table compares it: its config, and the content hash of the script its planner
 * names (as granted, for the agent before; as it is now, for the agent after); null: no script.
 */
export type ComparedAgent = AgentConfig & { script_sha256: string | null };

export type { WeakeningControl } from './agent-config';

/**
 * One row of the table. The controls are the fields agent-fields.ts marks `weakens`; a field whose
 * change the field alone judges is judged there, and its row has no `weakens`. A control judged
 * `'by-effect'` (with other fields, or by what the change does) is judged by its row here.
 */
interface Row {
  control: WeakeningControl;
  /** `before` is the agent as it was; a new agent is compared with the defaults. */
  weakens?: (before: ComparedAgent, after: ComparedAgent) => boolean;
  /** What in the change loosens, in words; for a control whose from → to alone does not say. */
  entries?(before: ComparedAgent, after: ComparedAgent): string[];
  /** What the weakening carries besides its from → to (the script content it binds). */
  also?(before: ComparedAgent, after: ComparedAgent): Partial<Weakening>;
  /** What the change does, as the 403 names it. */
  change: string;
  /** When a reason is required, and what it must say, as the 400 names it. */
  when: string;
  why: string;
}

type Rule = Row & Required<Pick<Row, 'weakens'>>;

/** The table, one row per control, in the order the 403 and the 400 name them. */
const ROWS: readonly Row[] = [
  {
    control: 'require_write_approval',
    change: 'turning require_write_approval off',
    when: 'require_write_approval is false',
    why: "this agent's writes may act without approval",
  },
  {
    control: 'four_eyes',
    change: 'turning four_eyes off',
    when: 'four_eyes is turned off',
    why: 'the person or token that started a run may approve its writes',
  },
  {
    control: 'unlabelled_clicks',
    change: 'setting unlabelled_clicks to "read"',
    when: 'unlabelled_clicks is "read"',
    why: "this agent's clicks that nothing could read a label for may be sent without a person",
  },
  {
    control: 'approval_timeout_seconds',
    change: `raising approval_timeout_seconds above the default ${AGENT_DEFAULTS.approval_timeout_seconds}`,
    when: `approval_timeout_seconds is raised above the default ${AGENT_DEFAULTS.approval_timeout_seconds}`,
    why: 'a held write may wait that long for a person, on a screen that may have moved on',
  },
  {
    control: 'commit_words',
    change: 'removing commit words',
    when: 'commit words are removed',
    why: 'clicks on those words need not be held as commits',
  },
  {
    control: 'navigation_words',
    change: 'adding navigation words',
    when: 'navigation words are added',
    why: 'a button or menu item labelled only with those words is sent without a person',
  },
  {
    control: 'ignore_regions',
    weakens: (a, b) => ignoresMore(a.ignore_regions, b.ignore_regions),
    change: `ignore_regions covering more than ${IGNORE_REGIONS_SHARE * 100}% of the screen`,
    when: `ignore_regions cover more than ${IGNORE_REGIONS_SHARE * 100}% of the screen`,
    why: 'a change there may go unseen between the approval and the write',
  },
  {
    control: 'redact_regions',
    // Measured like ignore_regions: what the approver no longer sees of the screen.
    weakens: (a, b) => ignoresMore(a.redact_regions, b.redact_regions),
    change: `redact_regions covering more than ${IGNORE_REGIONS_SHARE * 100}% of the screen`,
    when: `redact_regions cover more than ${IGNORE_REGIONS_SHARE * 100}% of the screen`,
    why: 'the person who approves a write sees nothing of the screen there, and neither does Warden',
  },
  {
    control: 'screen_rules',
    // By effect (screen-rule-effect.ts): a write entry gone, or a read entry new, in any rule.
    weakens: (a, b) => screenRuleLoosenings(a.screen_rules, b.screen_rules).length > 0,
    entries: (a, b) => screenRuleLoosenings(a.screen_rules, b.screen_rules),
    change: 'a screen rule change that may make a write a read',
    when: 'a screen rule change may make a write a read (a read entry added or changed, a write entry removed or changed)',
    why: 'what the rules no longer hold as a write may be sent without a person',
  },
  {
    control: 'approve_at',
    change: 'setting approve_at to "commit"',
    when: 'approve_at is "commit"',
    why: "this agent's typing reaches the screen without a person, who decides only at the commit",
  },
  {
    control: 'approvers',
    // Wider is any list that is not a subset of the old one: who a new entry lets decide (a
    // group's members, a subject) the code cannot know, and `group:x` and `subject:x` are two.
    // [] is anyone with agents.approve: emptying a list widens it most.
    weakens: (a, b) =>
      a.approvers.length > 0 &&
      (b.approvers.length === 0 || b.approvers.some((name) => !a.approvers.includes(name))),
    change:
      'widening approvers (adding an entry, or emptying the list: anyone with agents.approve)',
    when: 'approvers is widened',
    why: "more people may decide this agent's writes",
  },
  {
    control: 'escalate_to',
    // Wider is an entry neither an approver nor escalated to before (a wider group counts as a new
    // name). While anyone may decide, an escalation hands the write to no one new.
    weakens: (a, b) =>
      a.approvers.length > 0 &&
      b.approvers.length > 0 &&
      b.escalate_to.some((name) => !a.approvers.includes(name) && !a.escalate_to.includes(name)),
    change: 'escalating to someone not among approvers or escalate_to before',
    when: 'escalate_to names someone new',
    why: "more people may decide this agent's writes once they are escalated",
  },
  {
    control: 'screen_url',
    weakens: (a, b) =>
      !a.require_write_approval && !b.require_write_approval && a.screen_url !== b.screen_url,
    change: 'a new screen_url for an agent whose writes need no approval',
    when: 'an agent whose writes need no approval gets a new screen_url',
    why: "this agent's writes may act without approval on that host",
  },
  {
    control: 'planner',
    // A script is its content, not its id: the same id with other steps (or none: deleted) is
    // another planner, whether the config or the script changed (docs/security.md).
    weakens: (a, b) =>
      !a.require_write_approval &&
      !b.require_write_approval &&
      (plannerIdentity(a.planner) !== plannerIdentity(b.planner) ||
        a.script_sha256 !== b.script_sha256),
    also: (a, b) =>
      a.script_sha256 !== null || b.script_sha256 !== null
        ? { script_sha256: { from: a.script_sha256, to: b.script_sha256 } }
        : {},
    change:
      'a new planner, or new content of its script, for an agent whose writes need no approval',
    when: 'an agent whose writes need no approval gets a new planner or new content of its script',
    why: 'the writes this planner chooses may act without approval',
  },
];

const RULES: readonly Rule[] = ROWS.map((row) => ({ ...row, weakens: judge(row) }));

/** The row's own judgement, or its field's (agent-fields.ts); a control with neither, or both, is a bug. */
function judge(row: Row): Rule['weakens'] {
  const field = AGENT_FIELD_SPECS[row.control].weakens;
  if (field === 'by-effect') {
    if (!row.weakens)
      throw new Error(`weakening: ${row.control} is judged by effect but has no judgement`);
    return row.weakens;
  }
  if (row.weakens) throw new Error(`weakening: ${row.control} is judged by its field alone`);
  const fallback = AGENT_DEFAULTS[row.control as keyof typeof AGENT_DEFAULTS];
  const loosens = field as (before: unknown, after: unknown, fallback: unknown) => boolean;
  return (a, b) => loosens(a[row.control], b[row.control], fallback);
}

const missing = WEAKENING_CONTROLS.filter((c) => ROWS.filter((r) => r.control === c).length !== 1);
if (missing.length > 0 || ROWS.length !== WEAKENING_CONTROLS.length) {
  throw new Error(`weakening: the table needs exactly one row for each of ${missing.join(', ')}`);
}

const RULE_OF = new Map(RULES.map((rule) => [rule.control, rule]));

/**
 * Every weakening from `before` to `after`, by agent name then in the order of the table. A new agent
 * counts against the defaults; keeping a weak value as it is, tightening and removing an agent are
 * none. `before` null is the state before any version. `scripts` are the script grants of
 * `before` and the content of the scripts `after` names, as grants (script-grants.ts); left out,
 * no script content changed.
 */
export function weakenings(
  before: ComputerUseConfig | null,
  after: ComputerUseConfig,
  scripts: { before: ScriptGrants; after: ScriptGrants } = { before: {}, after: {} },
): Weakening[] {
  const found: Weakening[] = [];
  for (const name of Object.keys(after.agents).sort()) {
    const b = { ...after.agents[name], script_sha256: scripts.after[name] ?? null };
    const was = before?.agents[name];
    const a = was
      ? { ...was, script_sha256: scripts.before[name] ?? null }
      : { ...b, ...AGENT_DEFAULTS };
    for (const rule of RULES) {
      if (rule.weakens(a, b)) {
        found.push({
          agent: name,
          control: rule.control,
          from: a[rule.control],
          to: b[rule.control],
          ...(rule.entries ? { entries: rule.entries(a, b) } : {}),
          ...(rule.also ? rule.also(a, b) : {}),
        });
      }
    }
  }
  return found;
}

/** The 403: each weakening by control, with its agents. */
export function weakeningRefusal(list: readonly Weakening[]): string {
  const agents = new Map<WeakeningControl, string[]>();
  for (const w of list) agents.set(w.control, [...(agents.get(w.control) ?? []), w.agent]);
  const parts = RULES.filter((rule) => agents.has(rule.control)).map(
    (rule) => `${rule.change} (agent ${agents.get(rule.control)!.join(', ')})`,
  );
  return `${parts.join('; ')} ${parts.length === 1 ? 'needs' : 'need'} the permission governance.weaken as well as computer_use.admin`;
}

/** The 400 when an agent weakened here has no reason, naming its reason field; null when all have one. */
export function missingReasons(
  list: readonly Weakening[],
  config: ComputerUseConfig,
): string | null {
  const controls = new Map<string, WeakeningControl[]>();
  for (const w of list) {
    if ((config.agents[w.agent].reason ?? '').trim()) continue;
    controls.set(w.agent, [...(controls.get(w.agent) ?? []), w.control]);
  }
  if (controls.size === 0) return null;
  return [...controls]
    .map(([agent, names]) => {
      const rules = names.map((control) => RULE_OF.get(control)!);
      const why = rules.length === 1 ? rules[0].why : 'this agent may do more without a person';
      return `agents.${agent}.reason is required when ${rules.map((r) => r.when).join(' and ')}: say why ${why}`;
    })
    .join('; ');
}

/**
 * The 400 when a change made outside the config (a script replaced or deleted) weakens agents and
 * its `reason` is blank, naming the agents; null when it says why or weakens nothing.
 */
export function changeReasonMissing(
  list: readonly Weakening[],
  reason: string | null | undefined,
): string | null {
  if (list.length === 0 || (reason ?? '').trim()) return null;
  const rules = RULES.filter((rule) => list.some((w) => w.control === rule.control));
  const agents = [...new Set(list.map((w) => w.agent))].join(', ');
  const why = rules.length === 1 ? rules[0].why : 'these agents may do more without a person';
  return `reason is required when ${rules.map((r) => r.when).join(' and ')} (agent ${agents}): say why ${why}`;
}

/**
 * Whether `after` covers pixels `before` did not (ignored, or redacted), and more than the share of
 * the reference screen in all. Overlaps count once. Rectangles are not clipped to the reference screen: one beyond it may
 * lie on a larger real screen, so its whole area counts (the safe side).
 */
export function ignoresMore(before: readonly Rect[], after: readonly Rect[]): boolean {
  const screen = REFERENCE_SCREEN.width * REFERENCE_SCREEN.height;
  return (
    unionArea(after) > IGNORE_REGIONS_SHARE * screen &&
    unionArea([...before, ...after]) > unionArea(before)
  );
}

/** The area of the union of rectangles, in square pixels: overlaps count once. Exact for integers. */
export function unionArea(rects: readonly Rect[]): number {
  const xs = [...new Set(rects.flatMap((r) => [r.x, r.x + r.width]))].sort((p, q) => p - q);
  let area = 0;
  for (let i = 0; i + 1 < xs.length; i++) {
    const [left, right] = [xs[i], xs[i + 1]];
    const spans = rects
      .filter((r) => r.x <= left && r.x + r.width >= right)
      .map((r) => [r.y, r.y + r.height] as const)
      .sort((p, q) => p[0] - q[0]);
    let covered = 0;
    let top = spans[0]?.[0] ?? 0;
    let bottom = top;
    for (const [y0, y1] of spans) {
      if (y0 > bottom) {
        covered += bottom - top;
        [top, bottom] = [y0, y1];
      } else {
        bottom = Math.max(bottom, y1);
      }
    }
    covered += bottom - top;
    area += covered * (right - left);
  }
  return area;
}

/**
 * What makes a planner another one: the script, or the model and where it is asked. Budgets, prices,
 * history and timeout change how much it may do, not who plans.
 */
function plannerIdentity(planner: PlannerConfig | null): string {
  if (planner === null || typeof planner === 'string') return canonicalJson(planner);
  const { provider, model, base_url, api_key_env } = planner;
  return canonicalJson({ provider, model, base_url, api_key_env });
}
