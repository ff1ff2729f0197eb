/**
 * The planner catalog over real HTTP, PostgreSQL and the CLI run as a real process: what GET
 * /api/planners says per caller, the operator's allow, deny, tag and program (audited
 * `planner.access_changed`), the check at the config's PUT and at every run start, and that a
 * tenant admin has no way to widen their own access.
 */
import { ENTRIES, runEntry } from '../../scripts/lib/processes';
import { startApi, type TestApi } from '../support/api';
import { TEST_REDIS_URL } from '../support/env';

const NAVIGATOR = 'navigator-2026-11-10-normal';
const DEFAULT_ID = 'anthropic-claude-sonnet-4.5-normal';
const KEY_ENV = 'WARDEN_TEST_CATALOG_DEFAULT_KEY';
const OPUS = 'anthropic-claude-opus-4.1-normal';
const OPUS_KEY_ENV = 'WARDEN_TEST_CATALOG_OPUS_KEY';
const DEPLOYMENT = {
  DEFAULT_MODEL_PROVIDER: 'anthropic',
  DEFAULT_MODEL: 'claude-sonnet-4-5',
  DEFAULT_MODEL_API_KEY_ENV: KEY_ENV,
  // Another model planner of the deployment, not public.
  MODEL_PLANNERS: JSON.stringify([
    { id: OPUS, provider: 'anthropic', model: 'claude-opus-4-1', api_key_env: OPUS_KEY_ENV },
  ]),
};
const AGENT = { screen_url: 'https://127.0.0.1:8443', screen_token_env: 'SIM_HOST_TOKEN' };
const NOT_PUBLIC = `${NAVIGATOR} is not public: it is available only to subjects tagged researcher (subject bob is not), or whoever the deployment operator allows it to.`;

describe('the planner catalog', () => {
  let api: TestApi;
  /** computer_use.admin, soon tagged researcher. */
  let ada: string;
  /** computer_use.admin, never tagged. */
  let bob: string;
  /** agents.operate, untagged: starts runs. */
  let otto: string;
  let auditor: string;
  /** computer_use.admin in globex, with ada's subject name. */
  let globexAda: string;
  let script: string;

  beforeAll(async () => {
    api = await startApi(undefined, DEPLOYMENT);
    ada = (await api.token('acme', 'ada', ['computer_use.admin', 'agents.operate'])).token;
    bob = (await api.token('acme', 'bob', ['computer_use.admin'])).token;
    otto = (await api.token('acme', 'otto', ['agents.operate'])).token;
    auditor = (await api.token('acme', 'aud', ['audit.read'])).token;
    globexAda = (await api.token('globex', 'ada', ['computer_use.admin'])).token;
    const created = await api.request('POST', '/api/planners/scripted', {
      token: ada,
      json: {
        name: 'done at once',
        script: { steps: [{ action: { action: 'done', summary: 'ok' } }] },
      },
    });
    expect(created.status).toBe(201);
    script = created.body.planner.id;
  });

  afterAll(async () => {
    await api?.close();
  });

  const cli = (...args: string[]) =>
    runEntry(ENTRIES.cli, ['planners', ...args], {
      DATABASE_URL: api.db.url,
      REDIS_URL: TEST_REDIS_URL,
    });
  const cliOk = async (...args: string[]) => {
    const r = await cli(...args);
    if (r.code !== 0) throw new Error(`cli ${args.join(' ')}: ${r.code} ${r.stdout} ${r.stderr}`);
    return r.stdout;
  };
  /** The id a `planners allow|deny|tag|program` printed. */
  const idOf = (stdout: string) => /\(id ([0-9a-f-]{36}),/.exec(stdout)![1];
  const catalog = async (token: string) => {
    const r = await api.request('GET', '/api/planners', { token });
    expect(r.status).toBe(200);
    return r.body as {
      default: string | null;
      tags: string[];
      planners: Array<{ id: string; available: boolean; why: string } & Record<string, unknown>>;
    };
  };
  const entry = async (token: string, id: string) =>
    (await catalog(token)).planners.find((p) => p.id === id)!;
  const put = (token: string, agents: Record<string, unknown>) =>
    api.request('PUT', '/api/admin/computer-use', { token, json: { enabled: true, agents } });
  const start = (token: string, agent: string) =>
    api.request('POST', '/api/computer-use/runs', { token, json: { agent, goal: 'look' } });
  const events = async (type: string) =>
    (await api.request('GET', `/api/audit?type=${type}&limit=200`, { token: auditor })).body
      .items as Array<{ actor: string; details: Record<string, any> }>;

  it('lists the default model, the navigator and the tenant’s scripts, each with available and why', async () => {
    const seen = await catalog(bob);
    expect(seen.default).toBe(DEFAULT_ID);
    expect(seen.tags).toEqual([]);
    expect(seen.planners).toEqual([
      {
        id: DEFAULT_ID,
        name: "the deployment's default model (anthropic claude-sonnet-4-5)",
        family: 'anthropic-claude-sonnet',
        runs: 'platform',
        pixels: true,
        public: true,
        tags: [],
        programs: [],
        available: true,
        why: `${DEFAULT_ID} is the deployment's default model, public to every tenant.`,
        // The computer-use tool its model takes (config/model-tools.json).
        tool: 'computer_20250124',
      },
      {
        id: OPUS,
        name: 'anthropic claude-opus-4-1',
        family: 'anthropic-claude-opus',
        runs: 'platform',
        pixels: true,
        public: false,
        tags: [],
        programs: [],
        available: false,
        why: `${OPUS} is not public: it is available only to whoever the deployment operator allows it to.`,
        tool: 'computer_20250124',
      },
      expect.objectContaining({
        id: NAVIGATOR,
        family: 'navigator',
        runs: 'platform',
        pixels: false,
        public: false,
        tags: ['researcher'],
        available: false,
        why: NOT_PUBLIC,
      }),
      // The calling agent over MCP (docs/mcp.md): remote, not public.
      expect.objectContaining({
        id: 'mcp-1-normal',
        family: 'mcp',
        runs: 'remote',
        pixels: true,
        public: false,
        available: false,
        serving: false,
      }),
      expect.objectContaining({
        id: script,
        name: 'done at once',
        family: 'scripted',
        available: true,
      }),
    ]);
    // Another tenant sees its own scripts only.
    expect((await catalog(globexAda)).planners.map((p) => p.id)).toEqual([
      DEFAULT_ID,
      OPUS,
      NAVIGATOR,
      'mcp-1-normal',
    ]);
    const one = await api.request('GET', `/api/planners/${NAVIGATOR}`, { token: bob });
    expect(one.body).toEqual({ planner: seen.planners[2] });
    const scripted = await api.request('GET', `/api/planners/${script}`, { token: bob });
    expect(scripted.body.planner).toMatchObject({
      id: script,
      available: true,
      script: { steps: [{ action: { action: 'done', summary: 'ok' } }] },
    });
    expect((await api.request('GET', `/api/planners/${script}`, { token: globexAda })).status).toBe(
      404,
    );
    const unknown = await api.request('GET', '/api/planners/openai-gpt-5-normal', { token: bob });
    expect([unknown.status, unknown.body.message]).toEqual([
      404,
      'no planner "openai-gpt-5-normal"',
    ]);
  });

  it('a tag set with the CLI makes the navigator available to that subject alone, audited', async () => {
    const out = await cliOk(
      'tag',
      '--tenant',
      'acme',
      '--subject',
      'ada',
      '--tag',
      'researcher',
      '--note',
      'seed research',
    );
    expect(out).toMatch(
      /^set: tag researcher on subject ada of tenant acme \(id [0-9a-f-]{36}, by os:/,
    );
    expect((await api.request('GET', '/api/me', { token: ada })).body.tags).toEqual(['researcher']);
    expect((await api.request('GET', '/api/me', { token: bob })).body.tags).toEqual([]);
    // Tags belong to a subject of one tenant: globex's ada is someone else.
    expect((await api.request('GET', '/api/me', { token: globexAda })).body.tags).toEqual([]);
    expect(await entry(ada, NAVIGATOR)).toMatchObject({
      available: true,
      why: `Subject ada is tagged researcher, which ${NAVIGATOR} is for.`,
    });
    expect((await catalog(ada)).tags).toEqual(['researcher']);
    expect((await entry(bob, NAVIGATOR)).available).toBe(false);
    expect((await entry(globexAda, NAVIGATOR)).available).toBe(false);
    const [event] = await events('planner.access_changed');
    expect(event).toMatchObject({
      actor: expect.stringMatching(/^os:/),
      details: {
        change: 'set',
        kind: 'tag',
        subject: 'ada',
        name: 'researcher',
        note: 'seed research',
      },
    });
    // The same tag again changes nothing and is not audited again.
    expect(
      await cliOk('tag', '--tenant', 'acme', '--subject', 'ada', '--tag', 'researcher'),
    ).toMatch(/^already set: /);
    expect(await events('planner.access_changed')).toHaveLength(1);
  });

  it('checks a config naming a planner: 403 planner_access_required with the why, for the caller', async () => {
    const refused = await put(bob, { nav: { ...AGENT, planner: NAVIGATOR } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      statusCode: 403,
      error: 'planner_access_required',
      message: NOT_PUBLIC,
    });
    const unknown = await put(bob, { nav: { ...AGENT, planner: 'openai-gpt-5-normal' } });
    expect([unknown.status, unknown.body.error]).toEqual([403, 'planner_access_required']);
    expect(unknown.body.message).toMatch(/no planner "openai-gpt-5-normal" in this deployment/);
    // The deployment's key with a model the deployment does not offer is no way around it.
    const borrowed = await put(bob, {
      nav: {
        ...AGENT,
        planner: { provider: 'anthropic', model: 'claude-opus-4-1', api_key_env: KEY_ENV },
      },
    });
    expect([borrowed.status, borrowed.body.error]).toEqual([403, 'planner_access_required']);
    expect(borrowed.body.message).toContain(`the deployment's key ${KEY_ENV}`);
    // Nothing was stored.
    expect((await api.request('GET', '/api/admin/computer-use', { token: bob })).body.version).toBe(
      0,
    );

    const saved = await put(ada, {
      nav: { ...AGENT, planner: NAVIGATOR },
      model: { ...AGENT, planner: DEFAULT_ID },
      script: { ...AGENT, planner: script },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.agents.nav.planner).toBe(NAVIGATOR);
    // bob may change something else: an agent's planner that did not change is not checked again.
    const other = await put(bob, {
      nav: { ...AGENT, planner: NAVIGATOR, max_steps: 10 },
      model: { ...AGENT, planner: DEFAULT_ID },
      script: { ...AGENT, planner: script },
    });
    expect(other.status).toBe(200);
  });

  it('checks every run start for whoever starts it: refused planner_unavailable with the why, audited', async () => {
    const refused = await start(otto, 'nav');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      statusCode: 403,
      error: 'planner_unavailable',
      message: `agent "nav" cannot plan: ${NOT_PUBLIC.replace('subject bob', 'subject otto')}`,
    });
    const audited = (await events('computer_use.refused')).find((e) => e.details.agent === 'nav');
    expect(audited).toMatchObject({
      actor: 'otto',
      details: { reason: 'planner_unavailable', planner: NAVIGATOR },
    });
    // ada passes the catalog; what stops her run next is the screen host's token, not the planner.
    const passed = await start(ada, 'nav');
    expect(passed.status).not.toBe(403);
    expect(passed.body.message).not.toContain('cannot plan');
  });

  it('a deny wins over the tag and over public; the agent stays configured and its next run is refused', async () => {
    const denyNav = idOf(
      await cliOk('deny', '--tenant', 'acme', '--subject', 'ada', '--planner', 'navigator'),
    );
    expect(await entry(ada, NAVIGATOR)).toMatchObject({
      available: false,
      why: `${NAVIGATOR} is not available: the deployment operator denied the navigator family to subject ada.`,
    });
    const denyScripts = idOf(await cliOk('deny', '--tenant', 'acme', '--planner', 'scripted'));
    expect(await entry(ada, script)).toMatchObject({ available: false });
    const config = await api.request('GET', '/api/admin/computer-use', { token: ada });
    expect(config.body.agents.script.planner).toBe(script);
    const refused = await start(ada, 'script');
    expect([refused.status, refused.body.error]).toEqual([403, 'planner_unavailable']);
    expect(refused.body.message).toBe(
      `agent "script" cannot plan: ${script} is not available: the deployment operator denied the scripted family to tenant acme.`,
    );
    // A new agent naming it is refused at the PUT.
    const current = config.body.agents;
    const again = await put(ada, { ...current, copy: { ...AGENT, planner: script } });
    expect([again.status, again.body.error]).toEqual([403, 'planner_access_required']);
    // An allow does not beat the deny.
    await cliOk('allow', '--tenant', 'acme', '--subject', 'ada', '--planner', script);
    expect((await entry(ada, script)).available).toBe(false);
    // Removing the denies gives it back.
    await cliOk('remove', denyScripts);
    await cliOk('remove', denyNav);
    expect((await entry(ada, script)).available).toBe(true);
    expect((await entry(ada, NAVIGATOR)).available).toBe(true);
    const removed = (await events('planner.access_changed')).filter(
      (e) => e.details.change === 'removed',
    );
    expect(removed.map((e) => e.details.id).sort()).toEqual([denyNav, denyScripts].sort());
  });

  it('an allow to the tenant or a program opens a planner that is not public; a deny of the default refuses agents with no planner', async () => {
    const allow = idOf(await cliOk('allow', '--tenant', 'acme', '--planner', NAVIGATOR));
    expect(await entry(bob, NAVIGATOR)).toMatchObject({
      available: true,
      why: `The deployment operator allowed ${NAVIGATOR} to tenant acme.`,
    });
    await cliOk('remove', allow);
    expect((await entry(bob, NAVIGATOR)).available).toBe(false);

    await put(ada, { plain: { ...AGENT } });
    await cliOk('deny', '--tenant', 'acme', '--planner', 'anthropic-claude-sonnet');
    expect((await entry(bob, DEFAULT_ID)).available).toBe(false);
    const refused = await start(ada, 'plain');
    expect([refused.status, refused.body.error]).toEqual([403, 'planner_unavailable']);
    expect(refused.body.message).toContain(
      `denied the anthropic-claude-sonnet family to tenant acme`,
    );
    // Another tenant is not touched by acme's deny.
    expect((await entry(globexAda, DEFAULT_ID)).available).toBe(true);
  });

  it("another model planner of the deployment: only by the operator's allow, by id or as its exact model", async () => {
    const asModel = { provider: 'anthropic', model: 'claude-opus-4-1', api_key_env: OPUS_KEY_ENV };
    for (const planner of [OPUS, asModel]) {
      const refused = await put(bob, { opus: { ...AGENT, planner } });
      expect([refused.status, refused.body.error]).toEqual([403, 'planner_access_required']);
      expect(refused.body.message).toBe(
        `${OPUS} is not public: it is available only to whoever the deployment operator allows it to.`,
      );
    }
    const allow = idOf(
      await cliOk('allow', '--tenant', 'acme', '--subject', 'bob', '--planner', OPUS),
    );
    const current = (await api.request('GET', '/api/admin/computer-use', { token: bob })).body
      .agents;
    const saved = await put(bob, { ...current, opus: { ...AGENT, planner: OPUS } });
    expect(saved.status).toBe(200);
    expect(saved.body.agents.opus.planner).toBe(OPUS);
    // otto starting it is not bob: refused with the why.
    const refused = await start(otto, 'opus');
    expect([refused.status, refused.body.error]).toEqual([403, 'planner_unavailable']);
    await cliOk('remove', allow);
    // Its key is the deployment's: a tenant can never be granted it.
    const grant = await runEntry(
      ENTRIES.cli,
      [
        'secrets',
        'grant',
        '--tenant',
        'acme',
        '--env',
        OPUS_KEY_ENV,
        '--to',
        'https://api.anthropic.com',
      ],
      {
        DATABASE_URL: api.db.url,
        REDIS_URL: TEST_REDIS_URL,
        MODEL_PLANNERS: DEPLOYMENT.MODEL_PLANNERS,
      },
    );
    expect(grant.code).not.toBe(0);
    expect(grant.stderr).toContain(
      `${OPUS_KEY_ENV} is the key of one of the deployment's MODEL_PLANNERS`,
    );
  });

  it('lists, refuses what is not a planner, a tag or a program, and removes a tag', async () => {
    const listed = await cliOk('list', '--tenant', 'acme');
    expect(listed).toContain('researcher');
    expect(listed).toContain('anthropic-claude-sonnet');
    const bad = await cli('allow', '--tenant', 'acme', '--planner', 'Not A Planner!');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('needs --planner with a planner id');
    const badTag = await cli('tag', '--tenant', 'acme', '--subject', 'ada', '--tag', 'Research_er');
    expect(badTag.code).not.toBe(0);
    expect(badTag.stderr).toContain('--tag must be lower-case words joined by hyphens');
    const noTenant = await cli('tag', '--subject', 'ada', '--tag', 'researcher');
    expect(noTenant.code).toBe(2);
    expect(
      await cliOk('untag', '--tenant', 'acme', '--subject', 'ada', '--tag', 'researcher'),
    ).toMatch(/^untagged ada of tenant acme: researcher/);
    expect((await api.request('GET', '/api/me', { token: ada })).body.tags).toEqual([]);
    expect(
      (await cli('untag', '--tenant', 'acme', '--subject', 'ada', '--tag', 'researcher')).code,
    ).toBe(1);
    const program = await cliOk('program', '--tenant', 'acme', '--program', 'seed-research');
    expect(program).toMatch(/^set: program seed-research of tenant acme/);
  });

  it('gives a tenant admin no way through the API to change who may use which planner', async () => {
    // The catalog's ids are read-only to the API: no write route takes them.
    for (const [method, json] of [
      ['PUT', { script: { steps: [{ action: { action: 'done', summary: 'x' } }] } }],
      ['DELETE', undefined],
    ] as const) {
      const r = await api.request(method, `/api/planners/${NAVIGATOR}`, { token: ada, json });
      expect([method, r.status]).toEqual([method, 404]);
    }
    for (const path of ['/api/planners/access', '/api/planners/tags', '/api/me']) {
      const r = await api.request('PUT', path, { token: ada, json: { tags: ['researcher'] } });
      // PUT /api/planners/{id} is the scripted planners' update: no script, a 400; else no route.
      expect([path, [400, 404].includes(r.status)]).toEqual([path, true]);
    }
    expect((await api.request('GET', '/api/me', { token: ada })).body.tags).toEqual([]);
    expect((await entry(ada, NAVIGATOR)).available).toBe(false);
  });
});
