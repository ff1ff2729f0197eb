/**
 * Each agent's governance as data (browser/governance-view.ts): what its card on the admin page
 * says of the config in force, its kill switch, the tenant's pause and what was loosened. The
 * console e2e tests check the nodes in Chromium.
 */
import {
  agentView,
  plannerName,
  plannerNames,
  screenRuleInWords,
  type GovernanceState,
  type GovernedAgent,
} from './browser/governance-view';
import { clock } from './browser/words';
import type { AgentConfig, KillSwitch, Pause } from './browser/api-types';

const config = (over: Partial<AgentConfig> = {}): AgentConfig => ({
  screen_url: 'https://screens.example/sap',
  screen_token_env: 'SAP_TOKEN',
  screen_tls: null,
  system: 'SAP GUI',
  max_steps: 40,
  max_seconds: 600,
  require_write_approval: true,
  reason: null,
  four_eyes: true,
  approval_timeout_seconds: 3600,
  stall_after: 3,
  settle_ms: null,
  planner: null,
  commit_words: [],
  navigation_words: [],
  unlabelled_clicks: 'write',
  ignore_regions: [],
  redact_regions: [],
  screen_rules: [],
  approve_at: 'every_write',
  on_injection: 'hold',
  notify: [],
  notify_include_screen: false,
  approvers: [],
  remind_after_seconds: null,
  escalate_after_seconds: null,
  escalate_to: [],
  ...over,
});

const released: KillSwitch = {
  agent: 'sap',
  engaged: false,
  reason: null,
  updated_by: null,
  updated_at: null,
};
const notPaused: Pause = { paused: false, reason: null, updated_by: null, updated_at: null };
const AT = '2026-03-15T10:05:00Z';

const agent = (over: Partial<AgentConfig> = {}, kill = released): GovernedAgent => ({
  name: 'sap',
  config: config(over),
  kill,
});

const state = (over: Partial<GovernanceState> = {}): GovernanceState => ({
  agents: [],
  grants: {},
  pause: notPaused,
  names: new Map([['navigator-1', 'Navigator']]),
  weakened: [],
  ...over,
});

/** The card's facts by label. */
const factsOf = (s: GovernanceState, a: GovernedAgent) => new Map(agentView(s, a).rows);

describe('governance as data', () => {
  it('names a planner by the catalog’s name, a model by provider and model, or the default', () => {
    const names = plannerNames(
      { default: null, tags: [], planners: [] },
      {
        items: [
          {
            id: 'scripted-1',
            name: 'Month end',
            created_by: 'ada',
            created_at: AT,
            updated_at: AT,
            source_run_id: null,
            step_count: 3,
          },
        ],
        next_cursor: null,
      },
    );
    expect(plannerName('scripted-1', names)).toBe('Month end (scripted-1)');
    expect(plannerName('unknown-planner', names)).toBe('unknown-planner');
    expect(plannerName(null, names)).toBe("the deployment's default model");
    expect(plannerName({ provider: 'anthropic', model: 'claude' }, names)).toBe('anthropic claude');
    expect(plannerName({}, names)).toBe('? ?');
  });

  it('says a screen rule: its screen, its keys and labels; or the command field’s codes', () => {
    expect(screenRuleInWords({ title: 'Create Order', keys: { F8: 'read' }, labels: {} })).toBe(
      'on “Create Order”: F8 → read',
    );
    expect(screenRuleInWords({ labels: { Save: 'write', Print: 'read' } })).toBe(
      'on every screen: Save → write, Print → read',
    );
    expect(screenRuleInWords({ title: 'Empty' })).toBe('on “Empty”: nothing');
    expect(screenRuleInWords({ command_field: { transactions: ['VA01', 'VA03'] } })).toBe(
      'typing VA01, VA03 into the command field (and its Enter) is navigation',
    );
  });

  it('shows an agent that may act, with every write held and four-eyes on', () => {
    const view = agentView(state(), agent());
    expect(view).toMatchObject({ name: 'sap', stopped: false, standing: 'may act' });
    expect(view.rows.map(([label]) => label)).toEqual([
      'Planner',
      'Writes',
      'Four-eyes',
      'Approvers',
      'Screen rules',
      'Kill switch',
      'Pause (every agent)',
      'Loosened',
    ]);
    const facts = factsOf(state(), agent());
    expect(facts.get('Writes')).toBe('every write held for a person (approve_at: every_write)');
    expect(facts.get('Four-eyes')).toBe(
      'on: the person who starts a run cannot approve its writes',
    );
    expect(facts.get('Approvers')).toBe('anyone with agents.approve');
    expect(facts.get('Screen rules')).toBe('none');
    expect(facts.get('Kill switch')).toBe('released');
    expect(facts.get('Pause (every agent)')).toBe('not paused');
    expect(facts.get('Loosened')).toBe('never');
  });

  it('says the commit point, four-eyes off, named approvers and screen rules as a list', () => {
    const facts = factsOf(
      state(),
      agent({
        approve_at: 'commit',
        four_eyes: false,
        approvers: ['subject:carol', 'group:sap-leads'],
        escalate_to: ['subject:dan'],
        screen_rules: [{ title: 'Order', keys: { F8: 'read' } }],
      }),
    );
    expect(facts.get('Writes')).toMatch(/^held at each commit/);
    expect(facts.get('Four-eyes')).toMatch(/^off: /);
    expect(facts.get('Approvers')).toBe('subject:carol, group:sap-leads; escalates to subject:dan');
    expect(facts.get('Screen rules')).toEqual({ list: 'rules', items: ['on “Order”: F8 → read'] });
  });

  it('stops an agent by its kill switch first, then by the tenant’s pause', () => {
    const engaged = {
      ...released,
      engaged: true,
      reason: 'audit',
      updated_by: 'ada',
      updated_at: AT,
    };
    const paused: Pause = {
      paused: true,
      reason: 'quarter close',
      updated_by: 'ada',
      updated_at: AT,
    };
    expect(agentView(state({ pause: paused }), agent({}, engaged))).toMatchObject({
      stopped: true,
      standing: 'kill switch engaged',
    });
    expect(agentView(state({ pause: paused }), agent())).toMatchObject({
      stopped: true,
      standing: 'paused',
    });
    const facts = factsOf(state({ pause: paused }), agent({}, engaged));
    expect(facts.get('Kill switch')).toBe(`engaged by ada at ${clock(AT)}: audit`);
    expect(facts.get('Pause (every agent)')).toBe(`paused by ada at ${clock(AT)}: quarter close`);
    const once = { ...released, updated_by: 'ada', updated_at: AT };
    expect(factsOf(state(), agent({}, once)).get('Kill switch')).toBe(
      `released (last set by ada at ${clock(AT)})`,
    );
  });

  it('says the script granted to a scripted agent whose writes need no approval', () => {
    const unheld = agent({ require_write_approval: false, planner: 'scripted-1' });
    expect(factsOf(state(), unheld).get('Writes')).toBe(
      'act straight away: no person approves them',
    );
    expect(factsOf(state(), unheld).get('Script granted')).toMatch(/^none: the script it names/);
    const grant = { sha256: 'ff00', version: 4, granted_by: 'ada', granted_at: AT };
    expect(factsOf(state({ grants: { sap: grant } }), unheld).get('Script granted')).toBe(
      `the content with SHA-256 ff00, granted by ada at ${clock(AT)} (config version 4); other content of the script waits for a person`,
    );
    // A model planner has no script to grant.
    const model = agent({ require_write_approval: false, planner: 'navigator-1' });
    expect(factsOf(state(), model).has('Script granted')).toBe(false);
  });

  it('lists what was loosened on this agent, or says reading it needs audit.read', () => {
    const weakened = [
      { at: AT, actor: 'ada', type: 'governance.weaken', details: { agent: 'sap' } },
      { at: AT, actor: 'ada', type: 'governance.weaken', details: { agent: 'other' } },
    ];
    const loosened = factsOf(state({ weakened }), agent()).get('Loosened');
    expect(loosened).toEqual({ list: 'weakened', items: [expect.any(String)] });
    expect((loosened as { items: string[] }).items[0]).toMatch(
      new RegExp(`^${clock(AT)} by ada: `),
    );
    expect(factsOf(state({ weakened: null }), agent()).get('Loosened')).toBe(
      'reading it needs audit.read (the audit log’s governance.weaken events)',
    );
  });
});
