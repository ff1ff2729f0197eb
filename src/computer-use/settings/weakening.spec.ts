import type { ScreenRule, TitleScreenRule } from '../actions';
import {
  AGENT_DEFAULTS,
  type AgentConfig,
  type ComputerUseConfig,
  type ModelPlannerConfig,
  MODEL_PLANNER_DEFAULTS,
  type Rect,
} from './agent-config';
import {
  changeReasonMissing,
  missingReasons,
  unionArea,
  type Weakening,
  weakeningRefusal,
  weakenings,
} from './weakening';

const agent = (fields: Partial<AgentConfig> = {}): AgentConfig => ({
  ...AGENT_DEFAULTS,
  screen_url: 'https://host:8443',
  screen_token_env: 'HOST_TOKEN',
  ...fields,
});

/** An agent whose writes act without approval. */
const loose = (fields: Partial<AgentConfig> = {}): AgentConfig =>
  agent({ require_write_approval: false, reason: 'read-only system', ...fields });

const config = (agents: Record<string, AgentConfig>): ComputerUseConfig => ({
  enabled: true,
  agents,
});

const model = (fields: Partial<ModelPlannerConfig> = {}): ModelPlannerConfig => ({
  ...MODEL_PLANNER_DEFAULTS,
  provider: 'anthropic',
  model: 'claude',
  api_key_env: 'ANTHROPIC_API_KEY',
  ...fields,
});

const rect = (x: number, y: number, width: number, height: number): Rect => ({
  x,
  y,
  width,
  height,
});
/** The whole 1024×768 reference screen. */
const SCREEN = rect(0, 0, 1024, 768);
/** A status bar 1024×28: 3.6% of the reference screen. */
const BAR = rect(0, 740, 1024, 28);
/** A clock 100×100: 1.3%. */
const CLOCK = rect(900, 0, 100, 100);
const COMMAND_FIELD: ScreenRule = { command_field: { transactions: ['VA02', 'VA03'] } };
const ENTER_READ: TitleScreenRule = {
  title: '^Change Sales Order: Initial Screen$',
  keys: { Enter: 'read' },
};
const MIXED: TitleScreenRule = {
  title: '^Change Standard Order',
  keys: { F8: 'write' },
  labels: { '^Display$': 'read' },
};
/** The register's drawn cells: clicks there, where the outline has no element, navigate. */
const REGISTER_READ: TitleScreenRule = {
  title: ENTER_READ.title,
  regions: [{ x: 0, y: 130, width: 800, height: 300, click: 'read' }],
};
const WRITES: ScreenRule = {
  title: '^Change',
  keys: { Tab: 'write' },
  labels: { '^Go$': 'write' },
};
/** "Everything on this screen navigates, except Save" (issue 24). */
const NAVIGATES: TitleScreenRule = {
  title: '^Change Standard Order \\d+: Overview$',
  labels: { '.*': 'read' },
};
const SAVE_WRITES: TitleScreenRule = { title: NAVIGATES.title, labels: { '^Save$': 'write' } };
const ON_OVERVIEW = `on titles matching “${NAVIGATES.title}”`;
const ON_INITIAL = `on titles matching “${ENTER_READ.title}”`;
const ON_CHANGE = 'on titles matching “^Change”';
const SCRIPT_A = 'scripted-00000000-0000-4000-8000-00000000000a';
const SCRIPT_B = 'scripted-00000000-0000-4000-8000-00000000000b';

/** `before` null: the agent is new. `expected`: the weakenings of agent `a`, as [control, from, to]. */
interface Case {
  case: string;
  before: AgentConfig | null;
  after: AgentConfig;
  /** [control, from, to], and for screen rules what in them loosens. */
  expected: Array<[string, unknown, unknown, string[]?]>;
}

const CASES: Case[] = [
  // require_write_approval
  {
    case: 'require_write_approval turned off',
    before: agent(),
    after: loose(),
    expected: [['require_write_approval', true, false]],
  },
  {
    case: 'a new agent with require_write_approval off',
    before: null,
    after: loose(),
    expected: [['require_write_approval', true, false]],
  },
  {
    case: 'require_write_approval kept off',
    before: loose(),
    after: loose({ max_steps: 9 }),
    expected: [],
  },
  { case: 'require_write_approval turned on', before: loose(), after: agent(), expected: [] },

  // four_eyes
  {
    case: 'four_eyes turned off',
    before: agent(),
    after: agent({ four_eyes: false }),
    expected: [['four_eyes', true, false]],
  },
  {
    case: 'a new agent with four_eyes off',
    before: null,
    after: agent({ four_eyes: false }),
    expected: [['four_eyes', true, false]],
  },
  {
    case: 'four_eyes kept off',
    before: agent({ four_eyes: false }),
    after: agent({ four_eyes: false }),
    expected: [],
  },
  {
    case: 'four_eyes turned on',
    before: agent({ four_eyes: false }),
    after: agent(),
    expected: [],
  },

  // unlabelled_clicks
  {
    case: 'unlabelled_clicks set to "read"',
    before: agent(),
    after: agent({ unlabelled_clicks: 'read' }),
    expected: [['unlabelled_clicks', 'write', 'read']],
  },
  {
    case: 'a new agent with unlabelled_clicks "read"',
    before: null,
    after: agent({ unlabelled_clicks: 'read' }),
    expected: [['unlabelled_clicks', 'write', 'read']],
  },
  {
    case: 'unlabelled_clicks kept "read"',
    before: agent({ unlabelled_clicks: 'read' }),
    after: agent({ unlabelled_clicks: 'read' }),
    expected: [],
  },
  {
    case: 'unlabelled_clicks back to "write"',
    before: agent({ unlabelled_clicks: 'read' }),
    after: agent(),
    expected: [],
  },

  // approval_timeout_seconds
  {
    case: 'approval_timeout_seconds raised above the default',
    before: agent(),
    after: agent({ approval_timeout_seconds: 3601 }),
    expected: [['approval_timeout_seconds', 3600, 3601]],
  },
  {
    case: 'a new agent with a week-long approval timeout',
    before: null,
    after: agent({ approval_timeout_seconds: 604_800 }),
    expected: [['approval_timeout_seconds', 3600, 604_800]],
  },
  {
    case: 'approval_timeout_seconds raised further above the default',
    before: agent({ approval_timeout_seconds: 7200 }),
    after: agent({ approval_timeout_seconds: 86_400 }),
    expected: [['approval_timeout_seconds', 7200, 86_400]],
  },
  {
    case: 'approval_timeout_seconds kept above the default',
    before: agent({ approval_timeout_seconds: 7200 }),
    after: agent({ approval_timeout_seconds: 7200 }),
    expected: [],
  },
  {
    case: 'approval_timeout_seconds lowered, still above the default',
    before: agent({ approval_timeout_seconds: 86_400 }),
    after: agent({ approval_timeout_seconds: 7200 }),
    expected: [],
  },
  {
    case: 'approval_timeout_seconds raised up to the default',
    before: agent({ approval_timeout_seconds: 60 }),
    after: agent({ approval_timeout_seconds: 3600 }),
    expected: [],
  },
  {
    case: 'a new agent with a short approval timeout',
    before: null,
    after: agent({ approval_timeout_seconds: 60 }),
    expected: [],
  },

  // commit_words
  {
    case: 'the only commit word removed',
    before: agent({ commit_words: ['Buchen'] }),
    after: agent(),
    expected: [['commit_words', ['Buchen'], []]],
  },
  {
    case: 'one commit word of two removed',
    before: agent({ commit_words: ['Buchen', 'Sichern'] }),
    after: agent({ commit_words: ['Sichern'] }),
    expected: [['commit_words', ['Buchen', 'Sichern'], ['Sichern']]],
  },
  {
    case: 'a commit word spelt anew (counted as removed)',
    before: agent({ commit_words: ['Buchen'] }),
    after: agent({ commit_words: ['buchen'] }),
    expected: [['commit_words', ['Buchen'], ['buchen']]],
  },
  {
    case: 'a commit word added',
    before: agent({ commit_words: ['Buchen'] }),
    after: agent({ commit_words: ['Buchen', 'Sichern'] }),
    expected: [],
  },
  {
    case: 'commit words reordered',
    before: agent({ commit_words: ['Buchen', 'Sichern'] }),
    after: agent({ commit_words: ['Sichern', 'Buchen'] }),
    expected: [],
  },
  {
    case: 'a new agent with commit words',
    before: null,
    after: agent({ commit_words: ['Buchen'] }),
    expected: [],
  },

  // navigation_words
  {
    case: 'a navigation word added',
    before: agent(),
    after: agent({ navigation_words: ['Weiterblättern'] }),
    expected: [['navigation_words', [], ['Weiterblättern']]],
  },
  {
    case: 'a navigation word spelt anew (counted as added)',
    before: agent({ navigation_words: ['Weiterblättern'] }),
    after: agent({ navigation_words: ['weiterblättern'] }),
    expected: [['navigation_words', ['Weiterblättern'], ['weiterblättern']]],
  },
  {
    case: 'a new agent with a navigation word',
    before: null,
    after: agent({ navigation_words: ['Weiterblättern'] }),
    expected: [['navigation_words', [], ['Weiterblättern']]],
  },
  {
    case: 'a navigation word removed',
    before: agent({ navigation_words: ['Weiterblättern', 'Übersicht'] }),
    after: agent({ navigation_words: ['Übersicht'] }),
    expected: [],
  },
  {
    case: 'navigation words reordered',
    before: agent({ navigation_words: ['Weiterblättern', 'Übersicht'] }),
    after: agent({ navigation_words: ['Übersicht', 'Weiterblättern'] }),
    expected: [],
  },

  // ignore_regions
  {
    case: 'ignore_regions set to the whole screen',
    before: agent(),
    after: agent({ ignore_regions: [SCREEN] }),
    expected: [['ignore_regions', [], [SCREEN]]],
  },
  {
    case: 'a new agent ignoring a status bar (3.6%)',
    before: null,
    after: agent({ ignore_regions: [BAR] }),
    expected: [['ignore_regions', [], [BAR]]],
  },
  {
    case: 'ignore_regions of 1.3% (a clock)',
    before: agent(),
    after: agent({ ignore_regions: [CLOCK] }),
    expected: [],
  },
  {
    case: 'ignore_regions of 15,728 px², just under 2%',
    before: agent(),
    after: agent({ ignore_regions: [rect(0, 0, 983, 16)] }),
    expected: [],
  },
  {
    case: 'ignore_regions of 16,384 px², just over 2%',
    before: agent(),
    after: agent({ ignore_regions: [rect(0, 0, 1024, 16)] }),
    expected: [['ignore_regions', [], [rect(0, 0, 1024, 16)]]],
  },
  {
    case: 'two regions of 1.3% on the same pixels (overlaps count once)',
    before: agent(),
    after: agent({ ignore_regions: [CLOCK, CLOCK] }),
    expected: [],
  },
  {
    case: 'two regions of 1.3% side by side (2.5%)',
    before: agent(),
    after: agent({ ignore_regions: [CLOCK, rect(0, 0, 100, 100)] }),
    expected: [['ignore_regions', [], [CLOCK, rect(0, 0, 100, 100)]]],
  },
  {
    case: 'a region beyond the reference screen (not clipped)',
    before: agent(),
    after: agent({ ignore_regions: [rect(1800, 1000, 200, 100)] }),
    expected: [['ignore_regions', [], [rect(1800, 1000, 200, 100)]]],
  },
  {
    case: 'ignore_regions kept over 2%',
    before: agent({ ignore_regions: [BAR] }),
    after: agent({ ignore_regions: [BAR] }),
    expected: [],
  },
  {
    case: 'ignore_regions shrunk from the whole screen to a status bar',
    before: agent({ ignore_regions: [SCREEN] }),
    after: agent({ ignore_regions: [BAR] }),
    expected: [],
  },
  {
    case: 'the same pixels as two rectangles',
    before: agent({ ignore_regions: [BAR] }),
    after: agent({ ignore_regions: [rect(0, 740, 512, 28), rect(512, 740, 512, 28)] }),
    expected: [],
  },
  {
    case: 'a status bar moved to the top (other pixels, the same area)',
    before: agent({ ignore_regions: [BAR] }),
    after: agent({ ignore_regions: [rect(0, 0, 1024, 28)] }),
    expected: [['ignore_regions', [BAR], [rect(0, 0, 1024, 28)]]],
  },
  {
    case: 'a clock added to a status bar',
    before: agent({ ignore_regions: [BAR] }),
    after: agent({ ignore_regions: [BAR, CLOCK] }),
    expected: [['ignore_regions', [BAR], [BAR, CLOCK]]],
  },
  {
    case: 'ignore_regions removed',
    before: agent({ ignore_regions: [SCREEN] }),
    after: agent(),
    expected: [],
  },

  // redact_regions: measured like ignore_regions
  {
    case: 'redact_regions set to the whole screen',
    before: agent(),
    after: agent({ redact_regions: [SCREEN] }),
    expected: [['redact_regions', [], [SCREEN]]],
  },
  {
    case: 'a new agent redacting a status bar (3.6%)',
    before: null,
    after: agent({ redact_regions: [BAR] }),
    expected: [['redact_regions', [], [BAR]]],
  },
  {
    case: 'redact_regions of 1.3% (a customer name)',
    before: agent(),
    after: agent({ redact_regions: [CLOCK] }),
    expected: [],
  },
  {
    case: 'redact_regions of 16,384 px², just over 2%',
    before: agent(),
    after: agent({ redact_regions: [rect(0, 0, 1024, 16)] }),
    expected: [['redact_regions', [], [rect(0, 0, 1024, 16)]]],
  },
  {
    case: 'a second region added to a status bar',
    before: agent({ redact_regions: [BAR] }),
    after: agent({ redact_regions: [BAR, CLOCK] }),
    expected: [['redact_regions', [BAR], [BAR, CLOCK]]],
  },
  {
    case: 'a redacted status bar moved to the top (other pixels, the same area)',
    before: agent({ redact_regions: [BAR] }),
    after: agent({ redact_regions: [rect(0, 0, 1024, 28)] }),
    expected: [['redact_regions', [BAR], [rect(0, 0, 1024, 28)]]],
  },
  {
    case: 'redact_regions shrunk from the whole screen to a status bar',
    before: agent({ redact_regions: [SCREEN] }),
    after: agent({ redact_regions: [BAR] }),
    expected: [],
  },
  {
    case: 'redact_regions kept over 2%',
    before: agent({ redact_regions: [BAR] }),
    after: agent({ redact_regions: [BAR] }),
    expected: [],
  },
  {
    case: 'redact_regions removed',
    before: agent({ redact_regions: [SCREEN] }),
    after: agent(),
    expected: [],
  },
  {
    case: 'what ignore_regions leave out of the comparison is not redacted',
    before: agent({ ignore_regions: [BAR] }),
    after: agent({ ignore_regions: [BAR], redact_regions: [CLOCK] }),
    expected: [],
  },

  // approve_at
  {
    case: 'approve_at set to "commit"',
    before: agent(),
    after: agent({ approve_at: 'commit' }),
    expected: [['approve_at', 'every_write', 'commit']],
  },
  {
    case: 'a new agent that approves at the commit',
    before: null,
    after: agent({ approve_at: 'commit' }),
    expected: [['approve_at', 'every_write', 'commit']],
  },
  {
    case: 'approve_at back to every write',
    before: agent({ approve_at: 'commit' }),
    after: agent(),
    expected: [],
  },
  {
    case: 'approve_at kept at "commit"',
    before: agent({ approve_at: 'commit' }),
    after: agent({ approve_at: 'commit' }),
    expected: [],
  },

  // screen_rules: judged by effect (screen-rule-effect.ts), every row both ways
  {
    case: 'a command_field rule added',
    before: agent(),
    after: agent({ screen_rules: [COMMAND_FIELD] }),
    expected: [
      [
        'screen_rules',
        [],
        [COMMAND_FIELD],
        [
          'now a read: transaction VA02 in the command field',
          'now a read: transaction VA03 in the command field',
        ],
      ],
    ],
  },
  {
    case: 'a command_field rule removed',
    before: agent({ screen_rules: [COMMAND_FIELD] }),
    after: agent(),
    expected: [],
  },
  {
    case: 'a new agent with a title rule that makes Enter a read',
    before: null,
    after: agent({ screen_rules: [ENTER_READ] }),
    expected: [['screen_rules', [], [ENTER_READ], [`now a read: key Enter ${ON_INITIAL}`]]],
  },
  {
    case: 'a region of drawn cells made navigation',
    before: agent({ screen_rules: [ENTER_READ] }),
    after: agent({ screen_rules: [ENTER_READ, REGISTER_READ] }),
    expected: [
      [
        'screen_rules',
        [ENTER_READ],
        [ENTER_READ, REGISTER_READ],
        [
          `now a read: clicks in the region 0,130 800×300 where the outline has no element ${ON_INITIAL}`,
        ],
      ],
    ],
  },
  {
    case: 'a region of drawn cells no longer navigation',
    before: agent({ screen_rules: [ENTER_READ, REGISTER_READ] }),
    after: agent({ screen_rules: [ENTER_READ] }),
    expected: [],
  },
  {
    case: 'a new agent with a rule that only makes writes',
    before: null,
    after: agent({ screen_rules: [WRITES] }),
    expected: [],
  },
  {
    case: 'a rule with reads and writes added',
    before: agent(),
    after: agent({ screen_rules: [MIXED] }),
    expected: [
      [
        'screen_rules',
        [],
        [MIXED],
        ['now a read: labels matching “^Display$” on titles matching “^Change Standard Order”'],
      ],
    ],
  },
  {
    case: 'a read rule changed (another title: old removed, new added)',
    before: agent({ screen_rules: [ENTER_READ] }),
    after: agent({ screen_rules: [{ ...ENTER_READ, title: '^Change Sales Order' }] }),
    expected: [
      [
        'screen_rules',
        [ENTER_READ],
        [{ ...ENTER_READ, title: '^Change Sales Order' }],
        ['now a read: key Enter on titles matching “^Change Sales Order”'],
      ],
    ],
  },
  {
    case: 'a read rule narrowed to one order (another title, still counted)',
    before: agent({ screen_rules: [ENTER_READ] }),
    after: agent({ screen_rules: [{ ...ENTER_READ, title: '^Change Sales Order: Initial$' }] }),
    expected: [
      [
        'screen_rules',
        [ENTER_READ],
        [{ ...ENTER_READ, title: '^Change Sales Order: Initial$' }],
        ['now a read: key Enter on titles matching “^Change Sales Order: Initial$”'],
      ],
    ],
  },
  {
    case: 'a transaction code added to a command_field rule',
    before: agent({ screen_rules: [COMMAND_FIELD] }),
    after: agent({ screen_rules: [{ command_field: { transactions: ['VA02', 'VA03', 'VA01'] } }] }),
    expected: [
      [
        'screen_rules',
        [COMMAND_FIELD],
        [{ command_field: { transactions: ['VA02', 'VA03', 'VA01'] } }],
        ['now a read: transaction VA01 in the command field'],
      ],
    ],
  },
  {
    case: 'a transaction code removed from a command_field rule',
    before: agent({ screen_rules: [COMMAND_FIELD] }),
    after: agent({ screen_rules: [{ command_field: { transactions: ['VA03'] } }] }),
    expected: [],
  },
  {
    case: 'the write exception to a read rule removed (issue 24: Save went as a read)',
    before: agent({ screen_rules: [NAVIGATES, SAVE_WRITES] }),
    after: agent({ screen_rules: [NAVIGATES] }),
    expected: [
      [
        'screen_rules',
        [NAVIGATES, SAVE_WRITES],
        [NAVIGATES],
        [`no longer a write: labels matching “^Save$” ${ON_OVERVIEW}`],
      ],
    ],
  },
  {
    case: 'a write exception added to a read rule',
    before: agent({ screen_rules: [NAVIGATES] }),
    after: agent({ screen_rules: [NAVIGATES, SAVE_WRITES] }),
    expected: [],
  },
  {
    case: 'a write rule removed',
    before: agent({ screen_rules: [WRITES] }),
    after: agent(),
    expected: [
      [
        'screen_rules',
        [WRITES],
        [],
        [
          `no longer a write: key Tab ${ON_CHANGE}`,
          `no longer a write: labels matching “^Go$” ${ON_CHANGE}`,
        ],
      ],
    ],
  },
  {
    case: 'a rule that only makes writes added',
    before: agent(),
    after: agent({ screen_rules: [WRITES] }),
    expected: [],
  },
  {
    case: "a write rule's title changed (old removed, new added)",
    before: agent({ screen_rules: [SAVE_WRITES] }),
    after: agent({ screen_rules: [{ ...SAVE_WRITES, title: '^Change Standard Order' }] }),
    expected: [
      [
        'screen_rules',
        [SAVE_WRITES],
        [{ ...SAVE_WRITES, title: '^Change Standard Order' }],
        [`no longer a write: labels matching “^Save$” ${ON_OVERVIEW}`],
      ],
    ],
  },
  {
    case: 'a write rule added beside it with another title',
    before: agent({ screen_rules: [SAVE_WRITES] }),
    after: agent({
      screen_rules: [SAVE_WRITES, { ...SAVE_WRITES, title: '^Change Standard Order' }],
    }),
    expected: [],
  },
  {
    case: "a write rule's label pattern changed",
    before: agent({ screen_rules: [SAVE_WRITES] }),
    after: agent({
      screen_rules: [{ title: SAVE_WRITES.title, labels: { '^Save$|^Sichern$': 'write' } }],
    }),
    expected: [
      [
        'screen_rules',
        [SAVE_WRITES],
        [{ title: SAVE_WRITES.title, labels: { '^Save$|^Sichern$': 'write' } }],
        [`no longer a write: labels matching “^Save$” ${ON_OVERVIEW}`],
      ],
    ],
  },
  {
    case: 'a write label pattern added beside it',
    before: agent({ screen_rules: [SAVE_WRITES] }),
    after: agent({
      screen_rules: [
        { title: SAVE_WRITES.title, labels: { '^Save$': 'write', '^Sichern$': 'write' } },
      ],
    }),
    expected: [],
  },
  {
    case: 'a write label entry dropped',
    before: agent({ screen_rules: [WRITES] }),
    after: agent({ screen_rules: [{ title: '^Change', keys: { Tab: 'write' } }] }),
    expected: [
      [
        'screen_rules',
        [WRITES],
        [{ title: '^Change', keys: { Tab: 'write' } }],
        [`no longer a write: labels matching “^Go$” ${ON_CHANGE}`],
      ],
    ],
  },
  {
    case: 'a write keys entry dropped',
    before: agent({ screen_rules: [WRITES] }),
    after: agent({ screen_rules: [{ title: '^Change', labels: { '^Go$': 'write' } }] }),
    expected: [
      [
        'screen_rules',
        [WRITES],
        [{ title: '^Change', labels: { '^Go$': 'write' } }],
        [`no longer a write: key Tab ${ON_CHANGE}`],
      ],
    ],
  },
  {
    case: 'a write keys entry added',
    before: agent({ screen_rules: [{ title: '^Change', labels: { '^Go$': 'write' } }] }),
    after: agent({ screen_rules: [WRITES] }),
    expected: [],
  },
  {
    case: 'a write entry made a read',
    before: agent({ screen_rules: [SAVE_WRITES] }),
    after: agent({ screen_rules: [{ title: SAVE_WRITES.title, labels: { '^Save$': 'read' } }] }),
    expected: [
      [
        'screen_rules',
        [SAVE_WRITES],
        [{ title: SAVE_WRITES.title, labels: { '^Save$': 'read' } }],
        [
          `no longer a write: labels matching “^Save$” ${ON_OVERVIEW}`,
          `now a read: labels matching “^Save$” ${ON_OVERVIEW}`,
        ],
      ],
    ],
  },
  {
    case: 'a read rule made a write rule',
    before: agent({ screen_rules: [ENTER_READ] }),
    after: agent({ screen_rules: [{ ...ENTER_READ, keys: { Enter: 'write' } }] }),
    expected: [],
  },
  {
    case: 'a read rule gains a write (its read is as it was)',
    before: agent({ screen_rules: [ENTER_READ] }),
    after: agent({ screen_rules: [{ ...ENTER_READ, keys: { Enter: 'read', F8: 'write' } }] }),
    expected: [],
  },
  {
    case: 'a read rule loses the write beside it',
    before: agent({ screen_rules: [{ ...ENTER_READ, keys: { Enter: 'read', F8: 'write' } }] }),
    after: agent({ screen_rules: [ENTER_READ] }),
    expected: [
      [
        'screen_rules',
        [{ ...ENTER_READ, keys: { Enter: 'read', F8: 'write' } }],
        [ENTER_READ],
        [`no longer a write: key F8 ${ON_INITIAL}`],
      ],
    ],
  },
  {
    case: 'the read rule moved before its write exception (a write wins wherever it is)',
    before: agent({ screen_rules: [SAVE_WRITES, NAVIGATES] }),
    after: agent({ screen_rules: [NAVIGATES, SAVE_WRITES] }),
    expected: [],
  },
  {
    case: 'screen rules kept',
    before: agent({ screen_rules: [COMMAND_FIELD, ENTER_READ] }),
    after: agent({ screen_rules: [COMMAND_FIELD, ENTER_READ] }),
    expected: [],
  },
  {
    case: 'screen rules reordered',
    before: agent({ screen_rules: [COMMAND_FIELD, ENTER_READ] }),
    after: agent({ screen_rules: [ENTER_READ, COMMAND_FIELD] }),
    expected: [],
  },
  {
    case: 'the same rule with its fields in another order',
    before: agent({ screen_rules: [MIXED] }),
    after: agent({
      screen_rules: [{ labels: MIXED.labels, keys: MIXED.keys, title: MIXED.title }],
    }),
    expected: [],
  },
  {
    case: 'a rule that makes reads removed',
    before: agent({ screen_rules: [COMMAND_FIELD, ENTER_READ] }),
    after: agent({ screen_rules: [ENTER_READ] }),
    expected: [],
  },

  // approvers: typed entries, compared as written (a group and a subject of one name are two)
  {
    case: 'approvers emptied: anyone with agents.approve',
    before: agent({ approvers: ['group:sap-leads'] }),
    after: agent({ approvers: [] }),
    expected: [['approvers', ['group:sap-leads'], []]],
  },
  {
    case: 'approvers named where anyone could decide',
    before: agent(),
    after: agent({ approvers: ['group:sap-leads'] }),
    expected: [],
  },
  {
    case: 'an approver added',
    before: agent({ approvers: ['group:sap-leads'] }),
    after: agent({ approvers: ['group:sap-leads', 'subject:carol'] }),
    expected: [['approvers', ['group:sap-leads'], ['group:sap-leads', 'subject:carol']]],
  },
  {
    case: 'approvers narrowed',
    before: agent({ approvers: ['group:sap-leads', 'subject:carol'] }),
    after: agent({ approvers: ['subject:carol'] }),
    expected: [],
  },
  {
    case: 'an approver swapped for another',
    before: agent({ approvers: ['group:sap-leads'] }),
    after: agent({ approvers: ['group:finance'] }),
    expected: [['approvers', ['group:sap-leads'], ['group:finance']]],
  },
  {
    case: 'a subject swapped for the group of the same name',
    before: agent({ approvers: ['subject:sap-leads'] }),
    after: agent({ approvers: ['group:sap-leads'] }),
    expected: [['approvers', ['subject:sap-leads'], ['group:sap-leads']]],
  },
  {
    case: 'the group of a name dropped, its subject kept (as the migration leaves them)',
    before: agent({ approvers: ['group:carol', 'subject:carol'] }),
    after: agent({ approvers: ['subject:carol'] }),
    expected: [],
  },
  {
    case: 'approvers reordered',
    before: agent({ approvers: ['group:sap-leads', 'subject:carol'] }),
    after: agent({ approvers: ['subject:carol', 'group:sap-leads'] }),
    expected: [],
  },
  {
    case: 'a new agent with approvers',
    before: null,
    after: agent({ approvers: ['group:sap-leads'] }),
    expected: [],
  },

  // escalate_to
  {
    case: 'an escalation to someone new',
    before: agent({ approvers: ['group:sap-leads'] }),
    after: agent({
      approvers: ['group:sap-leads'],
      escalate_after_seconds: 60,
      escalate_to: ['group:heads'],
    }),
    expected: [['escalate_to', [], ['group:heads']]],
  },
  {
    case: 'an escalation removed',
    before: agent({
      approvers: ['group:sap-leads'],
      escalate_after_seconds: 60,
      escalate_to: ['group:heads'],
    }),
    after: agent({ approvers: ['group:sap-leads'] }),
    expected: [],
  },
  {
    case: 'an escalation to a wider group',
    before: agent({
      approvers: ['group:a'],
      escalate_after_seconds: 60,
      escalate_to: ['group:heads'],
    }),
    after: agent({
      approvers: ['group:a'],
      escalate_after_seconds: 60,
      escalate_to: ['group:staff'],
    }),
    expected: [['escalate_to', ['group:heads'], ['group:staff']]],
  },
  {
    case: 'an escalation narrowed to one of its names',
    before: agent({
      approvers: ['group:a'],
      escalate_after_seconds: 60,
      escalate_to: ['group:heads', 'subject:erin'],
    }),
    after: agent({
      approvers: ['group:a'],
      escalate_after_seconds: 60,
      escalate_to: ['subject:erin'],
    }),
    expected: [],
  },
  {
    case: 'an escalation to an approver already there',
    before: agent({ approvers: ['group:sap-leads', 'group:heads'] }),
    after: agent({
      approvers: ['group:sap-leads'],
      escalate_after_seconds: 60,
      escalate_to: ['group:heads'],
    }),
    expected: [],
  },
  {
    case: 'an escalation to the subject of an approver group (another name)',
    before: agent({ approvers: ['group:heads'] }),
    after: agent({
      approvers: ['group:heads'],
      escalate_after_seconds: 60,
      escalate_to: ['subject:heads'],
    }),
    expected: [['escalate_to', [], ['subject:heads']]],
  },
  {
    case: 'escalate_to kept, its delay shortened',
    before: agent({
      approvers: ['group:a'],
      escalate_after_seconds: 600,
      escalate_to: ['group:heads'],
    }),
    after: agent({
      approvers: ['group:a'],
      escalate_after_seconds: 60,
      escalate_to: ['group:heads'],
    }),
    expected: [],
  },
  {
    case: 'an escalation while anyone may decide',
    before: agent(),
    after: agent({ escalate_after_seconds: 60, escalate_to: ['group:heads'] }),
    expected: [],
  },
  {
    case: 'a new agent with approvers and an escalation',
    before: null,
    after: agent({
      approvers: ['group:a'],
      escalate_after_seconds: 60,
      escalate_to: ['group:heads'],
    }),
    expected: [],
  },

  // screen_url
  {
    case: 'a new screen_url for an agent whose writes need no approval',
    before: loose(),
    after: loose({ screen_url: 'https://elsewhere:8443' }),
    expected: [['screen_url', 'https://host:8443', 'https://elsewhere:8443']],
  },
  {
    case: 'a new screen_url for an agent whose writes are held',
    before: agent(),
    after: agent({ screen_url: 'https://elsewhere:8443' }),
    expected: [],
  },
  {
    case: 'a new screen_url and require_write_approval off at once (one entry)',
    before: agent(),
    after: loose({ screen_url: 'https://elsewhere:8443' }),
    expected: [['require_write_approval', true, false]],
  },
  {
    case: 'a new screen_url while require_write_approval is turned on',
    before: loose(),
    after: agent({ screen_url: 'https://elsewhere:8443' }),
    expected: [],
  },

  // planner
  {
    case: 'a new scripted planner for an agent whose writes need no approval',
    before: loose({ planner: SCRIPT_A }),
    after: loose({ planner: SCRIPT_B }),
    expected: [['planner', SCRIPT_A, SCRIPT_B]],
  },
  {
    case: 'a model instead of the default planner for an agent whose writes need no approval',
    before: loose(),
    after: loose({ planner: model() }),
    expected: [['planner', null, model()]],
  },
  {
    case: 'a model asked elsewhere for an agent whose writes need no approval',
    before: loose({ planner: model() }),
    after: loose({ planner: model({ base_url: 'https://models.example' }) }),
    expected: [['planner', model(), model({ base_url: 'https://models.example' })]],
  },
  {
    case: "a model's budget changed for an agent whose writes need no approval",
    before: loose({ planner: model() }),
    after: loose({ planner: model({ max_tokens_per_run: 50_000, history_screens: 1 }) }),
    expected: [],
  },
  {
    case: 'a new planner for an agent whose writes are held',
    before: agent({ planner: SCRIPT_A }),
    after: agent({ planner: SCRIPT_B }),
    expected: [],
  },
  {
    case: 'a new agent with a planner and require_write_approval off (one entry)',
    before: null,
    after: loose({ planner: SCRIPT_A }),
    expected: [['require_write_approval', true, false]],
  },

  // several at once
  {
    case: 'four_eyes off and a longer timeout at once, in the order of the table',
    before: agent(),
    after: agent({ approval_timeout_seconds: 7200, four_eyes: false }),
    expected: [
      ['four_eyes', true, false],
      ['approval_timeout_seconds', 3600, 7200],
    ],
  },
  {
    case: 'every control tightened at once',
    before: loose({
      four_eyes: false,
      unlabelled_clicks: 'read',
      approval_timeout_seconds: 604_800,
      ignore_regions: [SCREEN],
      screen_rules: [COMMAND_FIELD, ENTER_READ],
    }),
    after: agent({
      commit_words: ['Buchen'],
      approval_timeout_seconds: 60,
      ignore_regions: [],
      screen_rules: [WRITES],
    }),
    expected: [],
  },
  { case: 'nothing changed', before: agent(), after: agent(), expected: [] },
];

describe('weakenings', () => {
  it.each(CASES)('$case', ({ before, after, expected }) => {
    const old = before === null ? config({}) : config({ a: before });
    expect(weakenings(old, config({ a: after }))).toEqual(
      expected.map(([control, from, to, entries]) => ({
        agent: 'a',
        control,
        from,
        to,
        ...(entries ? { entries } : {}),
      })),
    );
  });

  it('counts a first config against the defaults', () => {
    expect(weakenings(null, config({ a: agent({ four_eyes: false }), b: agent() }))).toEqual([
      { agent: 'a', control: 'four_eyes', from: true, to: false },
    ]);
    expect(weakenings(null, config({}))).toEqual([]);
  });

  it('names agents in order, and none for an agent removed', () => {
    const before = config({ gone: loose(), z: agent(), m: agent() });
    const after = config({ z: agent({ four_eyes: false }), m: loose() });
    expect(weakenings(before, after).map((w) => [w.agent, w.control])).toEqual([
      ['m', 'require_write_approval'],
      ['z', 'four_eyes'],
    ]);
  });

  it('treats an agent renamed as a new one', () => {
    const before = config({ old: agent({ four_eyes: false }) });
    const after = config({ new: agent({ four_eyes: false }) });
    expect(weakenings(before, after)).toEqual([
      { agent: 'new', control: 'four_eyes', from: true, to: false },
    ]);
  });
});

/**
 * Script content (docs/security.md "Weakening"): the grant of an agent whose writes need no approval
 * is bound to the content of its script, as granted (before) and as it is now (after); the config
 * may be the same on both sides (a script replaced or deleted through its own endpoint).
 */
describe('weakenings: script content', () => {
  const X = 'a'.repeat(64);
  const Y = 'b'.repeat(64);
  const cases: Array<{
    case: string;
    before: AgentConfig;
    after: AgentConfig;
    granted: string | null;
    now: string | null;
    weakens: boolean;
  }> = [
    {
      case: 'the script of an agent whose writes need no approval replaced',
      before: loose({ planner: SCRIPT_A }),
      after: loose({ planner: SCRIPT_A }),
      granted: X,
      now: Y,
      weakens: true,
    },
    {
      case: 'the script of an agent whose writes need no approval deleted',
      before: loose({ planner: SCRIPT_A }),
      after: loose({ planner: SCRIPT_A }),
      granted: X,
      now: null,
      weakens: true,
    },
    {
      case: 'a script with no content granted (unknown) that now has content',
      before: loose({ planner: SCRIPT_A }),
      after: loose({ planner: SCRIPT_A }),
      granted: null,
      now: X,
      weakens: true,
    },
    {
      case: 'another script with the very content granted',
      before: loose({ planner: SCRIPT_A }),
      after: loose({ planner: SCRIPT_B }),
      granted: X,
      now: X,
      weakens: true,
    },
    {
      case: 'the script kept with the content granted',
      before: loose({ planner: SCRIPT_A }),
      after: loose({ planner: SCRIPT_A }),
      granted: X,
      now: X,
      weakens: false,
    },
    {
      case: 'the script of an agent whose writes are held replaced',
      before: agent({ planner: SCRIPT_A }),
      after: agent({ planner: SCRIPT_A }),
      granted: null,
      now: null,
      weakens: false,
    },
    {
      case: 'a replaced script while require_write_approval is turned on',
      before: loose({ planner: SCRIPT_A }),
      after: agent({ planner: SCRIPT_A }),
      granted: X,
      now: null,
      weakens: false,
    },
    {
      case: 'a script replaced by a model for an agent whose writes are held',
      before: agent({ planner: SCRIPT_A }),
      after: agent({ planner: model() }),
      granted: null,
      now: null,
      weakens: false,
    },
  ];

  it.each(cases)('$case', ({ before, after, granted, now, weakens }) => {
    const found = weakenings(config({ a: before }), config({ a: after }), {
      before: granted === null ? {} : { a: granted },
      after: now === null ? {} : { a: now },
    });
    expect(found).toEqual(
      weakens
        ? [
            {
              agent: 'a',
              control: 'planner',
              from: before.planner,
              to: after.planner,
              script_sha256: { from: granted, to: now },
            },
          ]
        : [],
    );
  });

  it('says what needs the permission, and why a reason is needed, for a change made outside the config', () => {
    const cfg = config({ nightly: loose({ planner: SCRIPT_A }) });
    const found = weakenings(cfg, cfg, { before: { nightly: X }, after: { nightly: Y } });
    expect(weakeningRefusal(found)).toBe(
      'a new planner, or new content of its script, for an agent whose writes need no approval (agent nightly) needs the permission governance.weaken as well as computer_use.admin',
    );
    expect(changeReasonMissing(found, '  ')).toBe(
      'reason is required when an agent whose writes need no approval gets a new planner or new content of its script (agent nightly): say why the writes this planner chooses may act without approval',
    );
    expect(changeReasonMissing(found, 'new nightly report')).toBeNull();
    expect(changeReasonMissing([], undefined)).toBeNull();
  });
});

describe('unionArea', () => {
  it.each<[string, Rect[], number]>([
    ['nothing', [], 0],
    ['one rectangle', [rect(3, 4, 10, 20)], 200],
    ['the same rectangle twice', [rect(3, 4, 10, 20), rect(3, 4, 10, 20)], 200],
    ['one inside another', [SCREEN, CLOCK], 1024 * 768],
    ['two overlapping by a quarter', [rect(0, 0, 10, 10), rect(5, 5, 10, 10)], 175],
    ['two touching', [rect(0, 0, 10, 10), rect(10, 0, 10, 10)], 200],
    ['two apart in one column', [rect(0, 0, 10, 10), rect(0, 20, 10, 10)], 200],
    ['a cross', [rect(10, 0, 10, 30), rect(0, 10, 30, 10)], 500],
    ['the largest allowed', [rect(100_000, 100_000, 100_000, 100_000)], 1e10],
  ])('%s', (_, rects, area) => {
    expect(unionArea(rects)).toBe(area);
  });
});

describe('weakeningRefusal', () => {
  const w = (agent: string, control: Weakening['control']): Weakening => ({
    agent,
    control,
    from: null,
    to: null,
  });

  it('names one weakening as the messages before it did', () => {
    expect(weakeningRefusal([w('lenient', 'unlabelled_clicks')])).toBe(
      'setting unlabelled_clicks to "read" (agent lenient) needs the permission governance.weaken as well as computer_use.admin',
    );
  });

  it('names a screen rule change that may make a write a read', () => {
    expect(weakeningRefusal([w('sap-orders', 'screen_rules')])).toBe(
      'a screen rule change that may make a write a read (agent sap-orders) needs the permission governance.weaken as well as computer_use.admin',
    );
  });

  it('names each control with its agents, in the order of the table', () => {
    expect(
      weakeningRefusal([
        w('a', 'ignore_regions'),
        w('a', 'four_eyes'),
        w('b', 'four_eyes'),
        w('c', 'planner'),
      ]),
    ).toBe(
      'turning four_eyes off (agent a, b); ignore_regions covering more than 2% of the screen (agent a); ' +
        'a new planner, or new content of its script, for an agent whose writes need no approval (agent c) ' +
        'need the permission governance.weaken as well as computer_use.admin',
    );
  });
});

describe('missingReasons', () => {
  const w = (agent: string, control: Weakening['control']): Weakening => ({
    agent,
    control,
    from: null,
    to: null,
  });

  it('is null when every agent weakened says why', () => {
    const cfg = config({ a: agent({ four_eyes: false, reason: 'one-person team' }) });
    expect(missingReasons([w('a', 'four_eyes')], cfg)).toBeNull();
    expect(missingReasons([], config({ a: agent() }))).toBeNull();
  });

  it('says why a screen rule needs a reason', () => {
    expect(missingReasons([w('a', 'screen_rules')], config({ a: agent() }))).toBe(
      'agents.a.reason is required when a screen rule change may make a write a read (a read entry added or changed, a write entry removed or changed): say why what the rules no longer hold as a write may be sent without a person',
    );
  });

  it("names each agent's reason field, blank counting as none", () => {
    const cfg = config({ a: agent({ reason: '  ' }), b: agent() });
    expect(
      missingReasons(
        [w('a', 'unlabelled_clicks'), w('b', 'four_eyes'), w('b', 'approval_timeout_seconds')],
        cfg,
      ),
    ).toBe(
      'agents.a.reason is required when unlabelled_clicks is "read": say why this agent\'s clicks that nothing could read a label for may be sent without a person; ' +
        'agents.b.reason is required when four_eyes is turned off and approval_timeout_seconds is raised above the default 3600: say why this agent may do more without a person',
    );
  });
});
