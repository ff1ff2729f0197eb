import {
  AGENT_DEFAULTS,
  MODEL_PLANNER_DEFAULTS,
} from '../../src/computer-use/settings/agent-config';
import { SettingsService } from '../../src/computer-use/settings/settings.service';
import { startApi, TestApi } from '../support/api';

/** The body docs/api.md says must be accepted as it is, byte for byte. */
const MINIMAL_BODY = `{"enabled": true,
 "agents": {"sap-orders": {
   "screen_url": "https://sapgui-host.internal:8443",
   "screen_token_env": "TICKETIQ_SAPGUI_HOST_TOKEN",
   "system": "SAP GUI", "max_steps": 20, "max_seconds": 300}}}`;

/** The minimal body's agent as GET shows it: every other field its default (agent-fields.ts). */
const SAP_ORDERS = {
  ...AGENT_DEFAULTS,
  screen_url: 'https://sapgui-host.internal:8443',
  screen_token_env: 'TICKETIQ_SAPGUI_HOST_TOKEN',
  system: 'SAP GUI',
  max_steps: 20,
  max_seconds: 300,
};

const AGENT = {
  screen_url: 'https://127.0.0.1:8443',
  screen_token_env: 'SIM_HOST_TOKEN',
};

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe('computer-use admin config', () => {
  let api: TestApi;
  let admin: string;
  let weakener: string;
  let auditor: string;
  let operator: string;
  let globexAdmin: string;
  let globexAuditor: string;

  beforeAll(async () => {
    api = await startApi(undefined, { CA_DIR: '/etc/warden' });
    admin = (await api.token('acme', 'ada', ['computer_use.admin'])).token;
    weakener = (await api.token('acme', 'wes', ['computer_use.admin', 'governance.weaken'])).token;
    auditor = (await api.token('acme', 'aud', ['audit.read'])).token;
    operator = (await api.token('acme', 'otto', ['agents.operate'])).token;
    globexAdmin = (await api.token('globex', 'gina', ['computer_use.admin'])).token;
    globexAuditor = (await api.token('globex', 'gus', ['audit.read'])).token;
  });

  afterAll(async () => {
    await api.close();
  });

  const get = (token = admin) => api.request('GET', '/api/admin/computer-use', { token });
  const put = (json: unknown, token = admin) =>
    api.request('PUT', '/api/admin/computer-use', { token, json });
  const currentVersion = async (token = admin): Promise<number> => (await get(token)).body.version;
  const events = async (type: string, token = auditor) => {
    const result = await api.request('GET', `/api/audit?type=${type}&limit=200`, { token });
    expect(result.status).toBe(200);
    return result.body.items as Array<{ actor: string; details: Record<string, any> }>;
  };
  const withAgent = (fields: Record<string, unknown>, name = 'a') => ({
    enabled: true,
    agents: { [name]: { ...AGENT, ...fields } },
  });

  it('starts with computer use off and no agents, at version 0', async () => {
    const result = await get();
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      version: 0,
      updated_by: null,
      updated_at: null,
      notices: [],
      enabled: false,
      agents: {},
      script_grants: {},
    });
  });

  it('accepts the minimal body of docs/api.md as it is and reads it back with every default', async () => {
    const saved = await api.request('PUT', '/api/admin/computer-use', {
      token: admin,
      headers: { 'content-type': 'application/json' },
      body: MINIMAL_BODY,
    });
    expect(saved.status).toBe(200);
    const expected = {
      version: 1,
      updated_by: 'ada',
      updated_at: ISO,
      notices: [],
      enabled: true,
      agents: { 'sap-orders': SAP_ORDERS },
      script_grants: {},
    };
    expect(saved.body).toEqual(expected);
    expect((await get()).body).toEqual({ ...expected, updated_at: saved.body.updated_at });

    // Stored normalised, so the engine reads one shape.
    const rows = await api.db.sql<{ version: number; config: unknown; created_by: string }>(
      `SELECT version, config, created_by FROM computer_use_configs WHERE tenant = 'acme'`,
    );
    expect(rows).toEqual([
      {
        version: 1,
        config: { enabled: true, agents: { 'sap-orders': SAP_ORDERS } },
        created_by: 'ada',
      },
    ]);
  });

  it('takes a body read with GET back as it is, typed so by the document (the client compiles it)', async () => {
    const client = api.client(admin);
    const planner = {
      provider: 'openai',
      model: 'computer-use-preview',
      api_key_env: 'OPENAI_API_KEY',
    };
    const base = await currentVersion();
    const set = await put({
      enabled: true,
      agents: { 'sap-orders': { ...AGENT, system: 'SAP GUI' }, plain: { ...AGENT, planner } },
      version: base,
    });
    expect(set.status).toBe(200);
    const read = await client.GET('/api/admin/computer-use');
    if (!read.data) throw new Error(`GET answered ${read.response.status}`);
    // The answer's nulls (no system, no screen_tls …) are a body PUT takes: if the document said
    // otherwise this line would not compile, and an integrator could not send back what it read.
    const again = await client.PUT('/api/admin/computer-use', { body: read.data });
    expect(again.response.status).toBe(200);
    expect(again.data).toMatchObject({ version: read.data.version + 1, agents: read.data.agents });
    // The nulls are there to send back: an agent with no system, a planner with no budget.
    expect(read.data.agents.plain.system).toBeNull();
    expect(read.data.agents.plain.planner).toMatchObject({ ...planner, max_tokens_per_run: null });
  });

  // Each row: the agent's fields (or a whole body), and what the 400 must say.
  const REFUSALS: Array<[string, unknown, string]> = [
    [
      'an http screen_url',
      withAgent({ screen_url: 'http://host:8443' }),
      'agents.a.screen_url must be an https:// URL',
    ],
    [
      'a screen_url that is no URL',
      withAgent({ screen_url: 'sapgui-host' }),
      'agents.a.screen_url must be an https:// URL',
    ],
    [
      'no screen_url',
      { enabled: true, agents: { a: { screen_token_env: 'T' } } },
      'agents.a.screen_url is required',
    ],
    [
      'no screen_token_env',
      { enabled: true, agents: { a: { screen_url: 'https://host' } } },
      'agents.a.screen_token_env is required',
    ],
    [
      'a lower-case variable name',
      withAgent({ screen_token_env: 'sim_token' }),
      'agents.a.screen_token_env must name an environment variable',
    ],
    [
      'a variable name starting with a digit',
      withAgent({ screen_token_env: '1TOKEN' }),
      'agents.a.screen_token_env must name an environment variable',
    ],
    [
      'a variable name with a dash',
      withAgent({ screen_token_env: 'SIM-TOKEN' }),
      'agents.a.screen_token_env must name an environment variable',
    ],
    [
      'a variable name of 129 characters',
      withAgent({ screen_token_env: 'A'.repeat(129) }),
      'agents.a.screen_token_env must name an environment variable',
    ],
    [
      'max_steps 41',
      withAgent({ max_steps: 41 }),
      'agents.a.max_steps must not be greater than 40',
    ],
    ['max_steps 0', withAgent({ max_steps: 0 }), 'agents.a.max_steps must not be less than 1'],
    [
      'max_steps as a string',
      withAgent({ max_steps: '20' }),
      'agents.a.max_steps must be an integer number',
    ],
    [
      'max_steps 2.5',
      withAgent({ max_steps: 2.5 }),
      'agents.a.max_steps must be an integer number',
    ],
    [
      'max_seconds 5',
      withAgent({ max_seconds: 5 }),
      'agents.a.max_seconds must not be less than 10',
    ],
    [
      'max_seconds a day',
      withAgent({ max_seconds: 86400 }),
      'agents.a.max_seconds must not be greater than 3600',
    ],
    [
      'approval_timeout_seconds 4',
      withAgent({ approval_timeout_seconds: 4 }),
      'agents.a.approval_timeout_seconds must not be less than 5',
    ],
    [
      'stall_after 0',
      withAgent({ stall_after: 0 }),
      'agents.a.stall_after must not be less than 1',
    ],
    [
      'settle_ms above 5000',
      withAgent({ settle_ms: 5001 }),
      'agents.a.settle_ms must not be greater than 5000',
    ],
    [
      'four_eyes as a string',
      withAgent({ four_eyes: 'no' }),
      'agents.a.four_eyes must be a boolean value',
    ],
    [
      'a 63-digit fingerprint',
      withAgent({ screen_tls: { fingerprint_sha256: 'a'.repeat(63) } }),
      'agents.a.screen_tls.fingerprint_sha256 must be the SHA-256',
    ],
    [
      'a fingerprint with non-hex digits',
      withAgent({ screen_tls: { fingerprint_sha256: 'g'.repeat(64) } }),
      'agents.a.screen_tls.fingerprint_sha256 must be the SHA-256',
    ],
    [
      'a fingerprint with stray colons',
      withAgent({ screen_tls: { fingerprint_sha256: 'ab:' + 'c'.repeat(62) } }),
      'agents.a.screen_tls.fingerprint_sha256 must be the SHA-256',
    ],
    [
      'both a fingerprint and a CA file',
      withAgent({ screen_tls: { fingerprint_sha256: 'a'.repeat(64), ca_file: '/etc/ca.pem' } }),
      'agents.a.screen_tls must have exactly one of fingerprint_sha256 or ca_file',
    ],
    [
      'a relative CA file',
      withAgent({ screen_tls: { ca_file: 'ca.pem' } }),
      'agents.a.screen_tls.ca_file must be an absolute path',
    ],
    [
      'an unknown screen_tls field',
      withAgent({ screen_tls: { ca_file: '/ca.pem', verify: false } }),
      'agents.a.screen_tls.verify is not a field of screen_tls',
    ],
    [
      'an unknown agent field',
      withAgent({ max_step: 10 }),
      'agents.a.max_step is not a field of an agent',
    ],
    [
      'an unknown top-level field',
      { enabled: true, agents: {}, debug: true },
      'debug is not a field of the config',
    ],
    ['no enabled', { agents: {} }, 'enabled must be true or false'],
    ['enabled as a string', { enabled: 'true', agents: {} }, 'enabled must be true or false'],
    [
      'agents as a list',
      { enabled: true, agents: [AGENT] },
      'agents must be an object of agents by name',
    ],
    [
      'an agent that is no object',
      { enabled: true, agents: { a: 'sap' } },
      'agents.a must be an object',
    ],
    [
      'an agent name with capitals',
      withAgent({}, 'SAP'),
      'agents: the name "SAP" must be 1-63 lower-case letters',
    ],
    [
      'an agent name starting with a dash',
      withAgent({}, '-sap'),
      'agents: the name "-sap" must be',
    ],
    [
      'a planner that is neither scripted nor a model',
      withAgent({ planner: 'gpt-4' }),
      'agents.a.planner must be a planner id',
    ],
    [
      'a scripted planner without a uuid',
      withAgent({ planner: 'scripted-1' }),
      'agents.a.planner must be a planner id',
    ],
    [
      'a planner that is a number',
      withAgent({ planner: 7 }),
      'agents.a.planner must be a planner id',
    ],
    [
      'an unknown provider',
      withAgent({ planner: { provider: 'acme-ai', model: 'm', api_key_env: 'K' } }),
      'agents.a.planner.provider must be one of the following values: anthropic, openai, openai-compatible',
    ],
    [
      'a model planner without a model',
      withAgent({ planner: { provider: 'anthropic', api_key_env: 'K' } }),
      'agents.a.planner.model is required',
    ],
    [
      'a model planner with a lower-case key variable',
      withAgent({ planner: { provider: 'openai', model: 'm', api_key_env: 'openai' } }),
      'agents.a.planner.api_key_env must name an environment variable',
    ],
    [
      'openai-compatible without base_url',
      withAgent({ planner: { provider: 'openai-compatible', model: 'm', api_key_env: 'K' } }),
      'agents.a.planner.base_url is required for provider openai-compatible',
    ],
    [
      'a base_url that is no URL',
      withAgent({
        planner: {
          provider: 'openai-compatible',
          model: 'm',
          api_key_env: 'K',
          base_url: 'ftp://x',
        },
      }),
      'agents.a.planner.base_url must be an http:// or https:// URL',
    ],
    [
      'a negative budget',
      withAgent({
        planner: { provider: 'openai', model: 'm', api_key_env: 'K', max_cost_usd_per_run: -1 },
      }),
      'agents.a.planner.max_cost_usd_per_run must not be less than 0',
    ],
    [
      'an unknown planner field',
      withAgent({ planner: { provider: 'openai', model: 'm', api_key_env: 'K', temperature: 0 } }),
      'agents.a.planner.temperature is not a field of a model planner',
    ],
    [
      'commit_words that is no list',
      withAgent({ commit_words: 'Save' }),
      'agents.a.commit_words must be a list of strings',
    ],
    [
      'a commit word without letters',
      withAgent({ commit_words: ['Buchen', '!!'] }),
      'agents.a.commit_words: “!!” must have letters or digits',
    ],
    [
      'a navigation word naming a commit key',
      withAgent({ navigation_words: ['Return'] }),
      'agents.a.navigation_words: “Return” names a commit key, which commits',
    ],
    [
      'a navigation word holding a committing verb',
      withAgent({ navigation_words: ['Back and save'] }),
      'agents.a.navigation_words: “Back and save” holds a committing verb, which a navigation word cannot',
    ],
    [
      'unlabelled_clicks maybe',
      withAgent({ unlabelled_clicks: 'maybe' }),
      'agents.a.unlabelled_clicks must be one of the following values: read, write',
    ],
    [
      'approve_at at the end',
      withAgent({ approve_at: 'end' }),
      'agents.a.approve_at must be one of the following values: every_write, commit',
    ],
    [
      'a negative ignore region',
      withAgent({ ignore_regions: [{ x: -1, y: 0, width: 10, height: 10 }] }),
      'agents.a.ignore_regions.0.x must not be less than 0',
    ],
    [
      'a fractional ignore region',
      withAgent({
        ignore_regions: [
          { x: 0, y: 0, width: 10, height: 10 },
          { x: 0, y: 0.5, width: 10, height: 10 },
        ],
      }),
      'agents.a.ignore_regions.1.y must be an integer number',
    ],
    [
      'an ignore region without height',
      withAgent({ ignore_regions: [{ x: 0, y: 0, width: 10 }] }),
      'agents.a.ignore_regions.0.height is required',
    ],
    [
      'writes without approval and without a reason',
      withAgent({ require_write_approval: false }),
      'agents.a.reason is required when require_write_approval is false',
    ],
    [
      'writes without approval and a blank reason',
      withAgent({ require_write_approval: false, reason: '   ' }),
      'agents.a.reason is required when require_write_approval is false',
    ],
    ['a body that is a list', [], 'the body must be a JSON object'],
  ];

  const SECRETS: Array<[string, unknown, string]> = [
    [
      'a token at the top',
      { enabled: true, agents: {}, token: 'abc' },
      'token would hold a secret',
    ],
    [
      'a screen token in an agent',
      withAgent({ screen_token: 'abc' }),
      'agents.a.screen_token would hold a secret',
    ],
    [
      'a password in an agent',
      withAgent({ password: 'hunter2' }),
      'agents.a.password would hold a secret',
    ],
    [
      'an API key in the planner',
      withAgent({ planner: { provider: 'openai', model: 'm', api_key: 'abc' } }),
      'agents.a.planner.api_key would hold a secret',
    ],
    [
      'a camelCase apiKey in the planner',
      withAgent({ planner: { provider: 'openai', model: 'm', apiKey: 'abc' } }),
      'agents.a.planner.apiKey would hold a secret',
    ],
    [
      'a client secret in screen_tls',
      withAgent({ screen_tls: { client_secret: 'abc' } }),
      'agents.a.screen_tls.client_secret would hold a secret',
    ],
    [
      'a private key in screen_tls',
      withAgent({ screen_tls: { private_key: 'abc' } }),
      'agents.a.screen_tls.private_key would hold a secret',
    ],
    [
      'a token inside an ignore region',
      withAgent({ ignore_regions: [{ x: 0, y: 0, width: 1, height: 1, token: 'x' }] }),
      'agents.a.ignore_regions.0.token would hold a secret',
    ],
    [
      'a provider key as a value',
      withAgent({ system: 'sk-ant-abcdefghijklmnopqrstuvwx' }),
      'agents.a.system looks like it holds a secret',
    ],
    [
      'a Warden token as a value',
      withAgent({ reason: 'wdn_' + 'a'.repeat(43) }),
      'agents.a.reason looks like it holds a secret',
    ],
    [
      'credentials in the screen URL',
      withAgent({ screen_url: 'https://admin:hunter2@host:8443' }),
      'agents.a.screen_url looks like it holds a secret',
    ],
    [
      'a token in the screen URL query',
      withAgent({ screen_url: 'https://host:8443/?token=abc' }),
      'agents.a.screen_url looks like it holds a secret',
    ],
  ];

  // Screen rules (docs/rules.md): every problem named by the rule's place in the list.
  const SCREEN_RULES: Array<[string, unknown, string]> = [
    [
      'a screen rule whose title is not a regular expression',
      withAgent({
        screen_rules: [
          { command_field: { transactions: ['VA02'] } },
          { title: '^Change Sales Order: (Initial Screen$', keys: { Enter: 'read' } },
        ],
      }),
      'agents.a.screen_rules[1].title is not a valid regular expression: Unterminated group',
    ],
    [
      'a screen rule whose label pattern is not a regular expression',
      withAgent({ screen_rules: [{ title: '^X$', labels: { '*Display': 'read' } }] }),
      'agents.a.screen_rules[0].labels["*Display"] is not a valid regular expression: Nothing to repeat',
    ],
    [
      'a screen rule pattern with a lookahead, which RE2 cannot run',
      withAgent({ screen_rules: [{ title: '^Change(?! Sales)', keys: { Enter: 'read' } }] }),
      'agents.a.screen_rules[0].title is not a valid regular expression: a lookahead ((?=…) or (?!…)) cannot be used: Warden matches patterns with RE2',
    ],
    [
      'a screen rule label pattern with a backreference',
      withAgent({ screen_rules: [{ title: '^X$', labels: { '(\\w)\\1': 'read' } }] }),
      'agents.a.screen_rules[0].labels["(\\\\w)\\\\1"] is not a valid regular expression: a backreference (\\1) cannot be used',
    ],
    [
      'a screen rule naming a key Warden refuses',
      withAgent({ screen_rules: [{ title: '^X$', keys: { 'Alt+F4': 'read' } }] }),
      'agents.a.screen_rules[0].keys["Alt+F4"]: key Alt+F4 is neither a navigation nor a commit key',
    ],
    [
      'a screen rule saying neither read nor write',
      withAgent({ screen_rules: [{ title: '^X$', keys: { Enter: 'navigation' } }] }),
      'agents.a.screen_rules[0].keys["Enter"] must be "read" or "write"',
    ],
    [
      'a screen rule with neither keys nor labels',
      withAgent({ screen_rules: [{ title: '^X$' }] }),
      'agents.a.screen_rules[0] needs keys, labels or regions',
    ],
    [
      'a screen rule of both shapes',
      withAgent({
        screen_rules: [
          { title: '^X$', keys: { Enter: 'read' }, command_field: { transactions: ['VA02'] } },
        ],
      }),
      'agents.a.screen_rules[0]: a screen rule is {"title": "^…$", "keys": {"Enter": "read"}, "labels": {"^…$": "read"}, "regions": [{"x": 0, "y": 130, "width": 800, "height": 300, "click": "read"}]} (with "transactions": ["VA03"] instead of the title or beside it) or {"command_field": {"transactions": ["VA02"]}}',
    ],
    [
      'a transaction code that is not one',
      withAgent({ screen_rules: [{ command_field: { transactions: ['/nVA02'] } }] }),
      'agents.a.screen_rules[0].command_field.transactions[0] "/nVA02" is not a transaction code',
    ],
    [
      'screen rules that are not a list',
      withAgent({ screen_rules: { command_field: { transactions: ['VA02'] } } }),
      'agents.a.screen_rules must be a list',
    ],
  ];

  it.each([...REFUSALS, ...SECRETS, ...SCREEN_RULES])(
    'refuses %s with a 400 naming the field',
    async (_, body, message) => {
      const before = await currentVersion();
      const result = await put(body, weakener);
      expect(result.status).toBe(400);
      expect(result.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: expect.any(String),
      });
      expect(result.body.message).toContain(message);
      expect(await currentVersion()).toBe(before);
    },
  );

  it('says secrets are named by environment variable only, and stores none of them', async () => {
    const result = await put(
      withAgent({ planner: { provider: 'openai', model: 'm', api_key: 'sk-live-do-not-keep-me' } }),
    );
    expect(result.body.message).toContain('secrets are named by environment variable only');
    const leaks = await api.db.sql<{ n: number }>(
      `SELECT (SELECT count(*) FROM computer_use_configs WHERE config::text LIKE '%do-not-keep%')
            + (SELECT count(*) FROM audit_events WHERE details::text LIKE '%do-not-keep%') AS n`,
    );
    expect(Number(leaks[0].n)).toBe(0);
  });

  it('names every problem of a body at once', async () => {
    const result = await put(withAgent({ max_steps: 41, screen_url: 'http://x', extra: 1 }));
    expect(result.status).toBe(400);
    expect(result.body.message).toContain('agents.a.max_steps must not be greater than 40');
    expect(result.body.message).toContain('agents.a.screen_url must be an https:// URL');
    expect(result.body.message).toContain('agents.a.extra is not a field of an agent');
  });

  it('accepts every field, and normalises what has two spellings', async () => {
    const fingerprint = Array.from({ length: 32 }, (_, i) =>
      (i + 160).toString(16).toUpperCase(),
    ).join(':');
    const body = {
      enabled: true,
      agents: {
        full: {
          ...AGENT,
          screen_tls: { fingerprint_sha256: fingerprint },
          system: 'Green screen',
          max_steps: 40,
          max_seconds: 600,
          four_eyes: false,
          approval_timeout_seconds: 120,
          stall_after: 5,
          settle_ms: 20,
          planner: {
            provider: 'openai-compatible',
            model: 'qwen2.5-vl',
            api_key_env: 'LOCAL_MODEL_KEY',
            base_url: 'http://127.0.0.1:11434/v1',
            max_tokens_per_run: 50000,
            max_tokens_per_day: 1000000,
            max_cost_usd_per_run: 0.5,
            price_per_mtok_in: 3,
            price_per_mtok_out: 15,
            price_per_mtok_cache_read: 1.5,
            price_per_mtok_cache_write: 0,
            history_screens: 1,
            timeout_seconds: 30,
          },
          commit_words: ['Verbuchen', 'Bestätigen'],
          navigation_words: ['Weiterblättern'],
          unlabelled_clicks: 'write',
          ignore_regions: [{ x: 0, y: 740, width: 1024, height: 28 }],
          redact_regions: [{ x: 600, y: 100, width: 200, height: 40 }],
          screen_rules: [
            { command_field: { transactions: ['va02', 'VA03'] } },
            {
              title: '^Change Sales Order: Initial Screen$',
              keys: { return: 'read', 'shift-tab': 'write' },
              labels: { '^Change Password$': 'write', '^Display$': 'read' },
            },
          ],
          approve_at: 'commit',
          on_injection: 'stop',
          notify: [
            { kind: 'webhook', url: 'https://hooks.example.com/warden', secret_env: 'HOOK_SECRET' },
            { kind: 'slack', url_env: 'SLACK_URL' },
            { kind: 'teams', url_env: 'TEAMS_URL' },
            { kind: 'email', to: ['sap-approvers@example.com'] },
          ],
          notify_include_screen: true,
          approvers: ['group:sap-leads', 'subject:carol'],
          remind_after_seconds: 30,
          escalate_after_seconds: 60,
          escalate_to: ['group:finance-heads'],
          reason: 'a one-person team; the status line changes by itself; VA02 navigation',
        },
        scripted: {
          ...AGENT,
          screen_tls: { ca_file: '/etc/warden/ca.pem' },
          planner: 'scripted-6F1C2A94-0E3B-4D6A-9B1C-2D3E4F5A6B7C',
        },
      },
    };
    // four_eyes off, a navigation word and a status bar of 3.6% ignored are weakenings.
    const result = await put(body, weakener);
    expect(result.status).toBe(200);
    expect(result.body.agents.full).toEqual({
      ...body.agents.full,
      screen_tls: { fingerprint_sha256: fingerprint.replace(/:/g, '').toLowerCase() },
      require_write_approval: true,
      // Keys in their canonical spelling, transaction codes in upper case.
      screen_rules: [
        { command_field: { transactions: ['VA02', 'VA03'] } },
        {
          title: '^Change Sales Order: Initial Screen$',
          keys: { Enter: 'read', 'Shift+Tab': 'write' },
          labels: { '^Change Password$': 'write', '^Display$': 'read' },
        },
      ],
    });
    expect(result.body.agents.scripted).toMatchObject({
      screen_tls: { ca_file: '/etc/warden/ca.pem' },
      planner: 'scripted-6f1c2a94-0e3b-4d6a-9b1c-2d3e4f5a6b7c',
      max_steps: 20,
    });
    const model = await put(
      withAgent({
        planner: {
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          api_key_env: 'ANTHROPIC_API_KEY',
        },
      }),
    );
    expect(model.body.agents.a.planner).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      api_key_env: 'ANTHROPIC_API_KEY',
      ...MODEL_PLANNER_DEFAULTS,
    });
  });

  it('keeps every version and lists them newest first, page by page', async () => {
    const start = await currentVersion();
    for (const steps of [11, 12, 13]) {
      expect((await put(withAgent({ max_steps: steps }))).status).toBe(200);
    }
    expect(await currentVersion()).toBe(start + 3);

    const first = await api.request('GET', '/api/admin/computer-use/versions?limit=2', {
      token: admin,
    });
    expect(first.status).toBe(200);
    expect(first.body.items.map((v: { version: number }) => v.version)).toEqual([
      start + 3,
      start + 2,
    ]);
    expect(first.body.items[0]).toEqual({
      version: start + 3,
      created_by: 'ada',
      created_at: ISO,
      config: { enabled: true, agents: { a: expect.objectContaining({ max_steps: 13 }) } },
      notices: [],
    });
    expect(first.body.next_cursor).toEqual(expect.any(String));

    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=3&cursor=${cursor}` : '?limit=3';
      const page = await api.request('GET', `/api/admin/computer-use/versions${query}`, {
        token: admin,
      });
      seen.push(...page.body.items.map((v: { version: number }) => v.version));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: start + 3 }, (_, i) => start + 3 - i));

    const bad = await api.request('GET', '/api/admin/computer-use/versions?cursor=nonsense', {
      token: admin,
    });
    expect(bad.status).toBe(400);
    const tooMany = await api.request('GET', '/api/admin/computer-use/versions?limit=201', {
      token: admin,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain('limit must not be greater than 200');
  });

  it('gives 10 concurrent PUTs 10 distinct versions, each audited, and loses none', async () => {
    const start = await currentVersion();
    const auditedBefore = (await events('computer_use.config')).length;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => put(withAgent({ max_steps: i + 1 }, `c${i}`))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const versions = results.map((r) => r.body.version as number).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 10 }, (_, i) => start + 1 + i));

    const rows = await api.db.sql<{ version: number; config: { agents: Record<string, unknown> } }>(
      `SELECT version, config FROM computer_use_configs WHERE tenant = 'acme' AND version > $1 ORDER BY version`,
      [start],
    );
    expect(rows.map((r) => r.version)).toEqual(versions);
    // Each version holds what its own PUT sent.
    for (const result of results) {
      const row = rows.find((r) => r.version === result.body.version)!;
      expect(row.config.agents).toEqual(result.body.agents);
    }
    const audited = await events('computer_use.config');
    expect(audited.length - auditedBefore).toBe(10);
    const verify = await api.request('GET', '/api/audit/verify', { token: auditor });
    expect(verify.body).toMatchObject({ ok: true });
  });

  it('audits each change as computer_use.config with the diff, old → new', async () => {
    await put({ enabled: false, agents: { keep: AGENT, gone: AGENT } });
    const changed = await put({
      enabled: true,
      agents: {
        keep: { ...AGENT, max_steps: 30, ignore_regions: [{ x: 1, y: 2, width: 3, height: 4 }] },
        fresh: AGENT,
      },
    });
    expect(changed.status).toBe(200);
    const last = (await events('computer_use.config')).at(-1)!;
    expect(last.actor).toBe('ada');
    expect(last.details).toEqual({
      version: changed.body.version,
      previous_version: changed.body.version - 1,
      token_id: expect.any(String),
      agents_added: ['fresh'],
      agents_removed: ['gone'],
      agents_changed: ['keep'],
      changes: [
        { path: 'enabled', from: false, to: true },
        { path: 'agents.fresh', from: null, to: changed.body.agents.fresh },
        { path: 'agents.gone', from: expect.objectContaining(AGENT), to: null },
        { path: 'agents.keep.ignore_regions', from: [], to: [{ x: 1, y: 2, width: 3, height: 4 }] },
        { path: 'agents.keep.max_steps', from: 20, to: 30 },
      ],
    });
  });

  describe('turning write approval off', () => {
    const weakened = (reason?: string) =>
      withAgent(
        { require_write_approval: false, ...(reason === undefined ? {} : { reason }) },
        'loose',
      );

    it('needs governance.weaken as well as computer_use.admin (403 naming it)', async () => {
      const before = await currentVersion();
      const result = await put(weakened('read-only reporting system'), admin);
      expect(result.status).toBe(403);
      expect(result.body.message).toContain('governance.weaken');
      expect(result.body.message).toContain('loose');
      expect(await currentVersion()).toBe(before);
    });

    it('needs a reason, even with governance.weaken (400)', async () => {
      const result = await put(weakened(), weakener);
      expect(result.status).toBe(400);
      expect(result.body.message).toContain('agents.loose.reason is required');
    });

    it('is audited as governance.weaken with the agent and the reason', async () => {
      const weakenedBefore = (await events('governance.weaken')).length;
      const result = await put(weakened('read-only reporting system'), weakener);
      expect(result.status).toBe(200);
      expect(result.body.agents.loose).toMatchObject({
        require_write_approval: false,
        reason: 'read-only reporting system',
      });
      const audited = await events('governance.weaken');
      expect(audited).toHaveLength(weakenedBefore + 1);
      expect(audited.at(-1)).toMatchObject({
        actor: 'wes',
        details: {
          control: 'require_write_approval',
          agent: 'loose',
          reason: 'read-only reporting system',
          version: result.body.version,
        },
      });
    });

    it('needs nothing more to keep an agent that is already off as it is, or to turn it back on', async () => {
      const weakenedBefore = (await events('governance.weaken')).length;
      const kept = await put(
        withAgent(
          { require_write_approval: false, reason: 'read-only reporting system', max_steps: 9 },
          'loose',
        ),
        admin,
      );
      expect(kept.status).toBe(200);
      const on = await put(withAgent({}, 'loose'), admin);
      expect(on.status).toBe(200);
      expect(on.body.agents.loose.require_write_approval).toBe(true);
      expect(await events('governance.weaken')).toHaveLength(weakenedBefore);
    });
  });

  describe('sending clicks nothing could read a label for (unlabelled_clicks "read")', () => {
    const lenient = (reason?: string) =>
      withAgent(
        { unlabelled_clicks: 'read', ...(reason === undefined ? {} : { reason }) },
        'lenient',
      );

    it('needs governance.weaken as well as computer_use.admin (403 naming it)', async () => {
      const before = await currentVersion();
      const result = await put(lenient('every screen has a full outline'), admin);
      expect(result.status).toBe(403);
      expect(result.body.message).toBe(
        'setting unlabelled_clicks to "read" (agent lenient) needs the permission governance.weaken as well as computer_use.admin',
      );
      expect(await currentVersion()).toBe(before);
    });

    it('needs a reason, even with governance.weaken (400)', async () => {
      const result = await put(lenient(), weakener);
      expect(result.status).toBe(400);
      expect(result.body.message).toContain(
        'agents.lenient.reason is required when unlabelled_clicks is "read"',
      );
    });

    it('is audited as governance.weaken, and keeping it or going back to "write" needs nothing more', async () => {
      const weakenedBefore = (await events('governance.weaken')).length;
      const result = await put(lenient('every screen has a full outline'), weakener);
      expect(result.status).toBe(200);
      expect(result.body.agents.lenient.unlabelled_clicks).toBe('read');
      const audited = await events('governance.weaken');
      expect(audited).toHaveLength(weakenedBefore + 1);
      expect(audited.at(-1)).toMatchObject({
        actor: 'wes',
        details: {
          control: 'unlabelled_clicks',
          agent: 'lenient',
          reason: 'every screen has a full outline',
          version: result.body.version,
        },
      });
      const kept = await put(
        withAgent(
          { unlabelled_clicks: 'read', reason: 'every screen has a full outline', max_steps: 9 },
          'lenient',
        ),
        admin,
      );
      expect(kept.status).toBe(200);
      const back = await put(withAgent({}, 'lenient'), admin);
      expect(back.status).toBe(200);
      expect(back.body.agents.lenient.unlabelled_clicks).toBe('write');
      expect(await events('governance.weaken')).toHaveLength(weakenedBefore + 1);
    });
  });

  it('refuses a change based on an old version with 409', async () => {
    const read = (await get()).body;
    expect((await put({ ...read, version: read.version })).status).toBe(200);
    const stale = await put({ ...read, version: read.version });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain(`at version ${read.version + 1}, not ${read.version}`);
  });

  describe('kill switch', () => {
    const path = (name: string) => `/api/admin/agents/${name}/kill-switch`;
    const setSwitch = (name: string, json: unknown, token = admin) =>
      api.request('PUT', path(name), { token, json });

    beforeAll(async () => {
      expect(
        (await put({ enabled: true, agents: { 'sap-orders': AGENT, other: AGENT } })).status,
      ).toBe(200);
    });

    it('is released until someone engages it', async () => {
      const result = await api.request('GET', path('sap-orders'), { token: admin });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        agent: 'sap-orders',
        engaged: false,
        reason: null,
        updated_by: null,
        updated_at: null,
      });
      expect(await api.app.get(SettingsService).killSwitch('acme', 'sap-orders')).toBeNull();
    });

    it('engages with a reason and releases, each audited as computer_use.kill_switch', async () => {
      const before = (await events('computer_use.kill_switch')).length;
      const engaged = await setSwitch('sap-orders', {
        engaged: true,
        reason: 'wrong orders booked',
      });
      expect(engaged.status).toBe(200);
      expect(engaged.body).toEqual({
        agent: 'sap-orders',
        engaged: true,
        reason: 'wrong orders booked',
        updated_by: 'ada',
        updated_at: ISO,
      });
      expect((await api.request('GET', path('sap-orders'), { token: admin })).body).toEqual(
        engaged.body,
      );
      expect(await api.app.get(SettingsService).killSwitch('acme', 'sap-orders')).toEqual({
        engaged: true,
        reason: 'wrong orders booked',
      });
      // Only that agent.
      expect((await api.request('GET', path('other'), { token: admin })).body.engaged).toBe(false);

      const released = await setSwitch('sap-orders', { engaged: false });
      expect(released.status).toBe(200);
      expect(released.body).toMatchObject({ engaged: false, reason: null });

      const audited = await events('computer_use.kill_switch');
      expect(audited.slice(before)).toEqual([
        expect.objectContaining({
          actor: 'ada',
          details: {
            agent: 'sap-orders',
            engaged: true,
            reason: 'wrong orders booked',
            previous: null,
            token_id: expect.any(String),
          },
        }),
        expect.objectContaining({
          details: {
            agent: 'sap-orders',
            engaged: false,
            reason: null,
            previous: { engaged: true, reason: 'wrong orders booked' },
            token_id: expect.any(String),
          },
        }),
      ]);
    });

    it('is not a config version: engaging it leaves the config as it is', async () => {
      const before = await currentVersion();
      await setSwitch('other', { engaged: true, reason: 'maintenance' });
      expect(await currentVersion()).toBe(before);
      // And a new config version does not release it.
      await put({
        enabled: true,
        agents: { 'sap-orders': AGENT, other: { ...AGENT, max_steps: 5 } },
      });
      expect((await api.request('GET', path('other'), { token: admin })).body.engaged).toBe(true);
    });

    it.each([
      ['engaging without a reason', { engaged: true }, 'reason is required when engaging'],
      [
        'engaging with a blank reason',
        { engaged: true, reason: '  ' },
        'reason is required when engaging',
      ],
      ['no engaged', { reason: 'x' }, 'engaged must be a boolean value'],
      ['engaged as a string', { engaged: 'true', reason: 'x' }, 'engaged must be a boolean value'],
      [
        'an unknown field',
        { engaged: false, until: 'tomorrow' },
        'property until should not exist',
      ],
    ])('refuses %s with 400', async (_, body, message) => {
      const result = await setSwitch('sap-orders', body);
      expect(result.status).toBe(400);
      expect(result.body.message).toContain(message);
    });

    it('is a 404 for an agent the config does not have', async () => {
      for (const name of ['nobody', 'NOT-A-NAME']) {
        const set = await setSwitch(name, { engaged: true, reason: 'x' });
        expect(set.status).toBe(404);
        expect(set.body.message).toContain(`no agent ${name}`);
        expect((await api.request('GET', path(name), { token: admin })).status).toBe(404);
      }
    });

    it('needs computer_use.admin', async () => {
      const result = await setSwitch('sap-orders', { engaged: true, reason: 'x' }, operator);
      expect(result.status).toBe(403);
    });
  });

  describe('tenancy', () => {
    it('shows another tenant its own config: empty until it sets one', async () => {
      const globex = await get(globexAdmin);
      expect(globex.body).toEqual({
        version: 0,
        updated_by: null,
        updated_at: null,
        notices: [],
        enabled: false,
        agents: {},
        script_grants: {},
      });
      const versions = await api.request('GET', '/api/admin/computer-use/versions', {
        token: globexAdmin,
      });
      expect(versions.body).toEqual({ items: [], next_cursor: null });

      const own = await put(withAgent({}, 'globex-only'), globexAdmin);
      expect(own.body.version).toBe(1);
      expect(Object.keys((await get()).body.agents)).not.toContain('globex-only');
    });

    it("answers 404 for another tenant's agent, and leaves its kill switch alone", async () => {
      const path = '/api/admin/agents/sap-orders/kill-switch';
      expect((await api.request('GET', path, { token: globexAdmin })).status).toBe(404);
      const set = await api.request('PUT', path, {
        token: globexAdmin,
        json: { engaged: true, reason: 'not yours' },
      });
      expect(set.status).toBe(404);
      expect((await api.request('GET', path, { token: admin })).body.engaged).toBe(false);
    });

    it("keeps each tenant's audit events in its own tenant", async () => {
      const globex = await events('computer_use.', globexAuditor);
      expect(globex.map((e) => e.details.agents_added ?? [])).toEqual([['globex-only']]);
    });
  });

  it('serves the engine the normalised config through SettingsService', async () => {
    const settings = api.app.get(SettingsService);
    const current = await settings.current('acme');
    expect(current).toEqual({ version: await currentVersion(), config: expect.any(Object) });
    expect(current!.config.agents['sap-orders']).toEqual({ ...SAP_ORDERS, ...AGENT, system: null });
    expect(await settings.agent('acme', 'sap-orders')).toEqual(
      current!.config.agents['sap-orders'],
    );
    expect(await settings.agent('acme', 'nobody')).toBeNull();
    expect(await settings.agent('globex', 'sap-orders')).toBeNull();
    expect(await settings.current('initech')).toBeNull();
  });
});
