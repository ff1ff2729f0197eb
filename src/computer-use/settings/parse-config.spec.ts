import fc from 'fast-check';
import { DomainError } from '../../common/domain-error';
import { AGENT_DEFAULTS, MODEL_PLANNER_DEFAULTS } from './agent-config';
import { parseConfigBody } from './parse-config';
import { findSecrets, isSecretName } from '../../common/secret-fields';

const MINIMAL = {
  enabled: true,
  agents: {
    'sap-orders': {
      screen_url: 'https://sapgui-host.internal:8443',
      screen_token_env: 'TICKETIQ_SAPGUI_HOST_TOKEN',
      system: 'SAP GUI',
      max_steps: 20,
      max_seconds: 300,
    },
  },
};

function refusal(body: unknown): string {
  try {
    parseConfigBody(body);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid');
    return (error as DomainError).message;
  }
  throw new Error('accepted');
}

const withAgent = (fields: Record<string, unknown>) => ({
  enabled: true,
  agents: { a: { ...MINIMAL.agents['sap-orders'], ...fields } },
});

describe('parseConfigBody', () => {
  it('accepts the minimal body of docs/api.md and fills in every default', () => {
    const { config, basedOn } = parseConfigBody(MINIMAL);
    expect(basedOn).toBeUndefined();
    expect(config).toEqual({
      enabled: true,
      agents: { 'sap-orders': { ...AGENT_DEFAULTS, ...MINIMAL.agents['sap-orders'] } },
    });
  });

  it('normalises a fingerprint, a scripted planner and a model planner', () => {
    const pairs = 'AB:'.repeat(31) + 'AB';
    const { config } = parseConfigBody({
      enabled: false,
      agents: {
        a: { ...MINIMAL.agents['sap-orders'], screen_tls: { fingerprint_sha256: pairs } },
        b: {
          ...MINIMAL.agents['sap-orders'],
          planner: 'scripted-0A1B2C3D-0000-4000-8000-000000000000',
        },
        c: {
          ...MINIMAL.agents['sap-orders'],
          planner: { provider: 'openai', model: 'gpt-5.4', api_key_env: 'OPENAI_API_KEY' },
        },
      },
    });
    expect(config.agents.a.screen_tls).toEqual({ fingerprint_sha256: 'ab'.repeat(32) });
    expect(config.agents.b.planner).toBe('scripted-0a1b2c3d-0000-4000-8000-000000000000');
    expect(config.agents.c.planner).toEqual({
      ...MODEL_PLANNER_DEFAULTS,
      provider: 'openai',
      model: 'gpt-5.4',
      api_key_env: 'OPENAI_API_KEY',
    });
  });

  it('accepts the navigator by its id, stored in lower case; what is no planner id is refused', () => {
    const agent = (planner: string) => ({
      enabled: false,
      agents: { a: { ...MINIMAL.agents['sap-orders'], planner } },
    });
    for (const id of ['navigator-2026-11-10-normal', 'Navigator-2026-11-10-normal']) {
      expect(parseConfigBody(agent(id)).config.agents.a.planner).toBe(
        'navigator-2026-11-10-normal',
      );
    }
    for (const near of ['navigator-2026-11-10', 'navigator']) {
      expect(() => parseConfigBody(agent(near))).toThrow(
        'agents.a.planner must be a planner id ("<family>-<version>-<effort>" or "scripted-<uuid>", GET /api/planners) or a model',
      );
    }
  });

  it('takes null as "the default", so a GET body can be PUT back', () => {
    const { config } = parseConfigBody(parseConfigBody(MINIMAL).config);
    expect(config).toEqual(parseConfigBody(MINIMAL).config);
    const round = parseConfigBody({
      ...parseConfigBody(MINIMAL).config,
      version: 4,
      updated_by: 'ada',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    expect(round.basedOn).toBe(4);
  });

  it.each([
    [{ max_steps: 41 }, 'agents.a.max_steps must not be greater than 40'],
    [{ max_steps: 0 }, 'agents.a.max_steps must not be less than 1'],
    [{ max_steps: '20' }, 'agents.a.max_steps must be an integer number'],
    [{ screen_url: 'http://host:8443' }, 'agents.a.screen_url must be an https:// URL'],
    [{ screen_token_env: 'lower' }, 'agents.a.screen_token_env must name an environment variable'],
    [{ colour: 'blue' }, 'agents.a.colour is not a field of an agent'],
    [{ require_write_approval: false }, 'agents.a.reason is required'],
    [{ require_write_approval: false, reason: '  ' }, 'agents.a.reason is required'],
    [{ screen_tls: {} }, 'agents.a.screen_tls must have exactly one of'],
    [{ screen_tls: { fingerprint_sha256: 'abc' } }, 'agents.a.screen_tls.fingerprint_sha256'],
    [{ screen_tls: { ca_file: 'ca.pem' } }, 'agents.a.screen_tls.ca_file must be an absolute path'],
    [{ planner: 'gpt' }, 'agents.a.planner must be a planner id'],
    [{ planner: { provider: 'x', model: 'm', api_key_env: 'K' } }, 'agents.a.planner.provider'],
    [
      { planner: { provider: 'openai-compatible', model: 'm', api_key_env: 'K' } },
      'agents.a.planner.base_url is required',
    ],
    [
      { planner: { provider: 'anthropic', model: 'claude-unheard-of', api_key_env: 'K' } },
      'agents.a.planner.model: Warden does not know which computer-use tool the anthropic model "claude-unheard-of" takes',
    ],
    [{ commit_words: [''] }, 'agents.a.commit_words'],
    [{ ignore_regions: [{ x: -1, y: 0, width: 1, height: 1 }] }, 'agents.a.ignore_regions.0.x'],
    [{ ignore_regions: [{ x: 0, y: 0, width: 1, height: 1, z: 1 }] }, 'ignore_regions.0.z'],
  ])('refuses %j naming the field', (fields, message) => {
    expect(refusal(withAgent(fields))).toContain(message);
  });

  it('takes screen rules in the two shapes, stored normalised', () => {
    const { config } = parseConfigBody(
      withAgent({
        screen_rules: [
          { command_field: { transactions: ['va02', 'VA03'] } },
          {
            title: '^Change Password$',
            keys: { return: 'read' },
            labels: { '^Change Password$': 'write', '^Key figures$': 'read' },
          },
        ],
        reason: 'VA02 navigation needs no person',
      }),
    );
    expect(config.agents.a.screen_rules).toEqual([
      { command_field: { transactions: ['VA02', 'VA03'] } },
      // Label patterns are the admin's own words, not field names: "Password" is no secret here.
      {
        title: '^Change Password$',
        keys: { Enter: 'read' },
        labels: { '^Change Password$': 'write', '^Key figures$': 'read' },
      },
    ]);
    expect(parseConfigBody(MINIMAL).config.agents['sap-orders'].screen_rules).toEqual([]);
    // As GET shows it, it can be PUT back.
    expect(parseConfigBody(config).config).toEqual(config);
  });

  it('names every problem of the screen rules by its path', () => {
    const message = refusal(
      withAgent({
        screen_rules: [
          { command_field: { transactions: ['VA02'] } },
          { title: '^(Change', keys: { Enter: 'read' } },
          { title: '^X$', keys: { 'Alt+F4': 'read' }, labels: { '^Y$': 'maybe' } },
        ],
      }),
    );
    expect(message).toBe(
      [
        'agents.a.screen_rules[1].title is not a valid regular expression: Unterminated group',
        'agents.a.screen_rules[2].keys["Alt+F4"]: key Alt+F4 is neither a navigation nor a commit key, and Warden refuses it on every screen',
        'agents.a.screen_rules[2].labels["^Y$"] must be "read" or "write"',
      ].join('; '),
    );
    expect(refusal(withAgent({ screen_rules: { title: 'x' } }))).toContain(
      'agents.a.screen_rules must be a list',
    );
    // A secret stays a secret inside a rule.
    expect(
      refusal(withAgent({ screen_rules: [{ title: '^X$', keys: { Enter: 'read' }, token: 'x' }] })),
    ).toContain('agents.a.screen_rules.0.token would hold a secret');
  });

  it('refuses bad names, shapes and top-level fields', () => {
    expect(refusal(null)).toContain('the body must be a JSON object');
    expect(refusal([])).toContain('the body must be a JSON object');
    expect(refusal({ agents: {} })).toContain('enabled must be true or false');
    expect(refusal({ enabled: true, agents: [] })).toContain('agents must be an object');
    expect(refusal({ enabled: true, agents: { 'Bad Name': {} } })).toContain('the name "Bad Name"');
    expect(refusal({ enabled: true, extra: 1 })).toContain('extra is not a field of the config');
    expect(refusal({ enabled: true, agents: { a: 'x' } })).toContain('agents.a must be an object');
  });

  it('refuses secrets by name at any depth, and secret-looking values, before anything else', () => {
    expect(refusal({ enabled: true, token: 'x' })).toMatch(
      /^token would hold a secret: secrets are named by environment variable only/,
    );
    expect(refusal(withAgent({ password: 'x' }))).toContain(
      'agents.a.password would hold a secret',
    );
    expect(
      refusal(withAgent({ planner: { provider: 'openai', model: 'm', api_key: 'sk-x' } })),
    ).toContain('agents.a.planner.api_key would hold a secret');
    expect(refusal(withAgent({ screen_tls: { private_key: 'x' } }))).toContain(
      'agents.a.screen_tls.private_key would hold a secret',
    );
    expect(refusal(withAgent({ system: 'wdn_' + 'a'.repeat(43) }))).toContain(
      'agents.a.system looks like it holds a secret',
    );
    expect(refusal(withAgent({ screen_url: 'https://host/?token=abc' }))).toContain(
      'agents.a.screen_url looks like it holds a secret',
    );
    // Agent names are names, not fields: an agent may be called "token-service".
    expect(() =>
      parseConfigBody({ enabled: true, agents: { 'token-service': MINIMAL.agents['sap-orders'] } }),
    ).not.toThrow();
  });
});

describe('secret names', () => {
  it.each(['token', 'password', 'api_key', 'apiKey', 'clientSecret', 'private_key', 'secret'])(
    '%s is a secret',
    (name) => expect(isSecretName(name)).toBe(true),
  );
  it.each(['screen_token_env', 'api_key_env', 'max_tokens_per_run', 'tokenizer', 'keyboard'])(
    '%s is not',
    (name) => expect(isSecretName(name)).toBe(false),
  );

  it('finds a secret field wherever it hides', () => {
    expect(findSecrets({ a: [{ b: { token: 1 } }] })).toEqual([
      { path: 'a.0.b.token', kind: 'name' },
    ]);
  });
});

describe('parseConfigBody on arbitrary input', () => {
  it('either returns a config or throws a 400, never anything else', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        try {
          parseConfigBody(value);
        } catch (error) {
          return error instanceof DomainError && error.code === 'invalid';
        }
        return true;
      }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (agent) => {
        try {
          parseConfigBody({ enabled: true, agents: { a: agent } });
        } catch (error) {
          return error instanceof DomainError && error.code === 'invalid';
        }
        return true;
      }),
    );
  });
});
