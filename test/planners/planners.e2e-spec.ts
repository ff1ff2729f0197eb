/**
 * Scripted planners over real HTTP and PostgreSQL: CRUD, the script checked with the step named,
 * the 64 KB and 200-step limits, tenancy, soft delete, audit events, and the lookup the engine
 * uses. Then the VA02 example of docs/api.md driven step by step against a real sim screen host.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { startScreenHost, type RunningScreenHost } from '../../screen-host/src';
import {
  checkAction,
  labelAt,
  loadRules,
  type OutlineElement,
} from '../../src/computer-use/actions';
import type { ObservedScreen } from '../../src/computer-use/planner-contract/planner';
import { PlannersService } from '../../src/computer-use/planning/planners.service';
import { ModelPlanner } from '../../src/computer-use/planning/model-planner';
import { ScriptedPlanner } from '../../src/computer-use/planning/scripted-planner';
import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { startApi, TestApi } from '../support/api';

const ID = /^scripted-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const ACTIONS = 'click, double_click, type, key, scroll, wait, done, fail';

const small = {
  steps: [
    { step: 'open', action: { action: 'key', key: 'return' } },
    { when: { text: 'saved' }, action: { action: 'done', summary: 'ok' } },
  ],
};

describe('scripted planners API', () => {
  let api: TestApi;
  let admin: string;
  let otherAdmin: string;
  let globex: string;
  let auditor: string;
  let operator: string;

  beforeAll(async () => {
    api = await startApi();
    admin = (await api.token('acme', 'ada', ['computer_use.admin'])).token;
    otherAdmin = (await api.token('acme', 'alan', ['computer_use.admin'])).token;
    globex = (await api.token('globex', 'gina', ['computer_use.admin', 'audit.read'])).token;
    auditor = (await api.token('acme', 'aud', ['audit.read'])).token;
    operator = (await api.token('acme', 'otto', ['agents.operate'])).token;
  });

  afterAll(async () => {
    await api.close();
  });

  const create = (json: unknown, token = admin) =>
    api.request('POST', '/api/planners/scripted', { token, json });

  it('creates a planner: 201 with the normalised script, who made it and when', async () => {
    const result = await create({ name: 'VA02: 4711 delivery date', script: small });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      planner: {
        id: expect.stringMatching(ID),
        name: 'VA02: 4711 delivery date',
        script: {
          steps: [
            { step: 'open', action: { action: 'key', key: 'Enter' } },
            { when: { text: 'saved' }, action: { action: 'done', summary: 'ok' } },
          ],
        },
        source_run_id: null,
        created_by: 'ada',
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
    const { planner } = result.body;
    expect(planner.updated_at).toBe(planner.created_at);
    const again = await api.request('GET', `/api/planners/${planner.id}`, { token: admin });
    expect(again.status).toBe(200);
    // The catalog's view of it (docs/planners.md), with the script.
    expect(again.body).toEqual({
      planner: {
        ...planner,
        family: 'scripted',
        runs: 'platform',
        pixels: false,
        public: true,
        tags: [],
        programs: [],
        available: true,
        why: `${planner.id} is a script of tenant acme, public to its own tenant.`,
      },
    });
    // jsonb gave back exactly what was checked.
    const [row] = await api.db.sql<{ script: unknown; tenant: string; deleted_at: Date | null }>(
      'SELECT script, tenant, deleted_at FROM scripted_planners WHERE id = $1',
      [planner.id.slice('scripted-'.length)],
    );
    expect(row).toEqual({ script: planner.script, tenant: 'acme', deleted_at: null });
  });

  it('keeps a tenant to 100 scripted planners: the 101st is 409, and one deleted makes room', async () => {
    const { token } = await api.token('umbrella', 'una', ['computer_use.admin']);
    // A burst on a loaded machine may find every database connection busy: 503 with Retry-After,
    // nothing stored; the caller tries again, as a client should.
    const createPatiently = async (json: unknown) => {
      for (;;) {
        const result = await create(json, token);
        if (result.status !== 503) return result;
        expect(result.headers.get('retry-after')).toBe('1');
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    const made = await Promise.all(
      Array.from({ length: 100 }, (_, i) => createPatiently({ name: `s${i}`, script: small })),
    );
    expect(made.map((r) => r.status)).toEqual(Array(100).fill(201));
    const over = await create({ name: 'one more', script: small }, token);
    expect(over.status).toBe(409);
    expect(over.body.message).toMatch(/^tenant umbrella has 100 scripted planners, the most/);
    // Another tenant is not counted with it.
    expect((await create({ name: 'elsewhere', script: small })).status).toBe(201);
    const gone = await api.request('DELETE', `/api/planners/${made[0].body.planner.id}`, { token });
    expect(gone.status).toBe(204);
    expect((await create({ name: 'one more', script: small }, token)).status).toBe(201);
  });

  it('refuses an invalid script with 400 naming the step and the field', async () => {
    const script = {
      steps: [
        { action: { action: 'key', key: 'Enter' } },
        { action: { action: 'type', text: '4711' } },
        { action: { action: 'key', key: 'Tab' } },
        { action: { action: 'explode' } },
      ],
    };
    const result = await create({ name: 'broken', script });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: `steps[3].action.action "explode": one of ${ACTIONS}`,
    });
  });

  it.each([
    [
      'a key that is not allowed',
      { steps: [{ action: { action: 'key', key: 'Alt+F4' } }] },
      /^steps\[0\]\.action\.key: key Alt\+F4 is not allowed; /,
    ],
    [
      'a regular expression that does not compile',
      { steps: [{ when: { text: '[' }, action: { action: 'done', summary: 'x' } }] },
      /^steps\[0\]\.when\.text "\[": not a valid regular expression/,
    ],
    [
      'a regular expression with a lookahead, which RE2 cannot run',
      { steps: [{ when: { text: 'saved(?!!)' }, action: { action: 'done', summary: 'x' } }] },
      /^steps\[0\]\.when\.text "saved\(\?!!\)": not a valid regular expression \(a lookahead/,
    ],
    [
      'a click with both a point and an element',
      {
        steps: [
          { action: { action: 'click', x: 1, y: 1, element: { role: 'button', name: 'Save' } } },
        ],
      },
      /^steps\[0\]\.action: either x and y or element, not both$/,
    ],
    [
      'a control character',
      { steps: [{ action: { action: 'fail', reason: 'a\u0007b' } }] },
      /^steps\[0\]\.action\.reason: no control characters$/,
    ],
    [
      // Refused for every body before the script is read (test/api/json-bodies.e2e-spec.ts).
      'a NUL that jsonb could not store',
      { steps: [{ action: { action: 'fail', reason: 'a\u0000b' } }] },
      /^the body has a string at script\.steps\[0\]\.action\.reason with a NUL character/,
    ],
    ['a list', [], /^script \(a list\): an object \{steps, patience\?\}$/],
    ['no steps', {}, /^steps: missing; a list of 1 to 200 steps$/],
  ])('refuses %s with a 400 that says where', async (_what, script, message) => {
    const result = await create({ name: 'x', script });
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(message);
  });

  it('refuses a body without a script, with a bad name, or with unknown fields', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'x' }, /script is missing/],
      [{ script: small }, /name must be a string/],
      [{ name: '', script: small }, /name must be longer than or equal to 1 characters/],
      [{ name: ' padded', script: small }, /name must not start or end with a space/],
      [{ name: 'x'.repeat(201), script: small }, /name must be shorter than or equal to 200/],
      [{ name: 'x', script: small, owner: 'me' }, /property owner should not exist/],
    ];
    for (const [json, message] of cases) {
      const result = await create(json);
      expect([result.status, result.body.message]).toEqual([400, expect.stringMatching(message)]);
    }
  });

  it('answers a deeply nested script with a 400, not a crash', async () => {
    const depth = 50_000;
    const body = `{"name": "deep", "script": {"steps": [{"action": ${'['.repeat(depth)}${']'.repeat(depth)}}]}}`;
    const result = await api.request('POST', '/api/planners/scripted', {
      token: admin,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(
      /^the body nests deeper than 32 levels \(at script\.steps\[0\]\.action\[0\]/,
    );
    expect(
      (await api.request('GET', '/api/planners/scripted?limit=1', { token: admin })).status,
    ).toBe(200);
  });

  it('takes 200 steps, refuses 201, and refuses more than 64 KB of JSON', async () => {
    const steps = (n: number) =>
      Array.from({ length: n }, () => ({ action: { action: 'wait', seconds: 0.5 } }));
    const ok = await create({ name: '200 steps', script: { steps: steps(200) } });
    expect(ok.status).toBe(201);
    expect(ok.body.planner.script.steps).toHaveLength(200);

    const tooMany = await create({ name: '201 steps', script: { steps: steps(201) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('steps: 201 steps; at most 200');

    const big = {
      steps: Array.from({ length: 140 }, () => ({
        action: { action: 'type', text: 'x'.repeat(490) },
      })),
    };
    const bytes = Buffer.byteLength(JSON.stringify(big));
    expect(bytes).toBeGreaterThan(65_536);
    const tooBig = await create({ name: 'big', script: big });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.message).toBe(`script: ${bytes} bytes of JSON; at most 65536`);
  });

  it('lists the tenant its planners oldest first, in pages, without the scripts', async () => {
    const api2 = api;
    const names = ['list-a', 'list-b', 'list-c'];
    for (const name of names) expect((await create({ name, script: small })).status).toBe(201);
    const seen: Array<Record<string, unknown>> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const page = await api2.request('GET', `/api/planners/scripted${query}`, { token: admin });
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items);
      cursor = page.body.next_cursor;
      pages += 1;
    } while (cursor && pages < 50);
    expect(seen.slice(-3).map((p) => p.name)).toEqual(names);
    expect(new Set(seen.map((p) => p.id)).size).toBe(seen.length);
    expect(seen.at(-1)).toEqual({
      id: expect.stringMatching(ID),
      name: 'list-c',
      step_count: 2,
      source_run_id: null,
      created_by: 'ada',
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const whole = await api.request('GET', '/api/planners/scripted?limit=200', { token: admin });
    expect(whole.body.items).toEqual(seen);
    expect(whole.body.next_cursor).toBeNull();

    const bad = await api.request('GET', '/api/planners/scripted?cursor=bm9wZQ', { token: admin });
    expect([bad.status, bad.body.message]).toEqual([400, 'cursor is not one this API gave out']);
  });

  it('updates the script and the name, checks the new script, and keeps created_*', async () => {
    const { planner } = (await create({ name: 'to update', script: small })).body;
    const path = `/api/planners/${planner.id}`;

    const invalid = await api.request('PUT', path, {
      token: otherAdmin,
      json: { script: { steps: [{ action: { action: 'key', key: 'Enter' } }, { action: {} }] } },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe(`steps[1].action.action: missing; one of ${ACTIONS}`);

    const script = { patience: 3, steps: [{ action: { action: 'wait', seconds: 1 } }] };
    const updated = await api.request('PUT', path, { token: otherAdmin, json: { script } });
    expect(updated.status).toBe(200);
    expect(updated.body.planner).toEqual({
      ...planner,
      script,
      updated_at: expect.stringMatching(ISO),
    });
    expect(Date.parse(updated.body.planner.updated_at)).toBeGreaterThanOrEqual(
      Date.parse(planner.created_at),
    );

    const renamed = await api.request('PUT', path, {
      token: admin,
      json: { name: 'renamed', script },
    });
    expect(renamed.body.planner).toMatchObject({ name: 'renamed', created_by: 'ada', script });
    expect((await api.request('GET', path, { token: admin })).body.planner.name).toBe('renamed');
    // An optional field sent as null means the same as leaving it out: the name stays.
    const nulled = await api.request('PUT', path, { token: admin, json: { name: null, script } });
    expect([nulled.status, nulled.body.planner?.name]).toEqual([200, 'renamed']);

    const missing = await api.request('PUT', path, { token: admin, json: { name: 'no script' } });
    expect([missing.status, missing.body.message]).toEqual([400, expect.stringMatching(/script/)]);
  });

  it('soft-deletes: 204, then 404 everywhere, gone from the list, the row kept', async () => {
    const { planner } = (await create({ name: 'to delete', script: small })).body;
    const path = `/api/planners/${planner.id}`;
    const deleted = await api.request('DELETE', path, { token: admin });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');

    for (const [method, json] of [
      ['GET', undefined],
      ['PUT', { script: small }],
      ['DELETE', undefined],
    ] as const) {
      const result = await api.request(method, path, { token: admin, json });
      expect([method, result.status, result.body.message]).toEqual([
        method,
        404,
        `no planner "${planner.id}"`,
      ]);
    }
    const list = await api.request('GET', '/api/planners/scripted?limit=200', { token: admin });
    expect(list.body.items.map((p: { id: string }) => p.id)).not.toContain(planner.id);
    const [row] = await api.db.sql<{ deleted_at: Date | null; name: string }>(
      'SELECT deleted_at, name FROM scripted_planners WHERE id = $1',
      [planner.id.slice('scripted-'.length)],
    );
    expect(row.name).toBe('to delete');
    expect(row.deleted_at).toBeInstanceOf(Date);
  });

  it('is 404 for an id that is not a planner', async () => {
    for (const id of ['scripted-00000000-0000-4000-8000-000000000000', 'nonsense', 'scripted-1']) {
      const result = await api.request('GET', `/api/planners/${id}`, { token: admin });
      expect([result.status, result.body.message]).toEqual([404, `no planner "${id}"`]);
    }
  });

  it('gives another tenant 404 for a planner, and none in its list; it changes nothing', async () => {
    const { planner } = (await create({ name: 'acme only', script: small })).body;
    const path = `/api/planners/${planner.id}`;
    for (const [method, json] of [
      ['GET', undefined],
      ['PUT', { name: 'stolen', script: small }],
      ['DELETE', undefined],
    ] as const) {
      const result = await api.request(method, path, { token: globex, json });
      expect([method, result.status]).toEqual([method, 404]);
    }
    const list = await api.request('GET', '/api/planners/scripted?limit=200', { token: globex });
    expect(list.body).toEqual({ items: [], next_cursor: null });
    const still = await api.request('GET', path, { token: admin });
    expect(still.body.planner).toMatchObject(planner);
  });

  it('needs computer_use.admin', async () => {
    const { planner } = (await create({ name: 'perm', script: small })).body;
    for (const token of [auditor, operator]) {
      expect((await create({ name: 'x', script: small }, token)).status).toBe(403);
      expect((await api.request('GET', `/api/planners/${planner.id}`, { token })).status).toBe(403);
    }
  });

  it('audits created, updated and deleted, in the tenant only', async () => {
    const { planner } = (await create({ name: 'audited', script: small })).body;
    const path = `/api/planners/${planner.id}`;
    const script = { steps: [{ action: { action: 'wait', seconds: 1 } }] };
    await api.request('PUT', path, { token: otherAdmin, json: { name: 'audited 2', script } });
    await api.request('DELETE', path, { token: admin });

    const events = await api.request('GET', '/api/audit?type=computer_use.planner.&limit=200', {
      token: auditor,
    });
    const mine = events.body.items.filter(
      (e: { details: { planner_id: string } }) => e.details.planner_id === planner.id,
    );
    const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
    expect(mine).toEqual([
      expect.objectContaining({
        type: 'computer_use.planner.created',
        actor: 'ada',
        tenant: 'acme',
        details: {
          planner_id: planner.id,
          name: 'audited',
          step_count: 2,
          script_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      }),
      expect.objectContaining({
        type: 'computer_use.planner.updated',
        actor: 'alan',
        details: {
          planner_id: planner.id,
          name: 'audited 2',
          previous_name: 'audited',
          step_count: 1,
          // The canonical JSON of this script is its JSON: its keys are already in order.
          script_sha256: sha({ steps: [{ action: { action: 'wait', seconds: 1 } }] }),
          previous_script_sha256: mine[0].details.script_sha256,
        },
      }),
      expect.objectContaining({
        type: 'computer_use.planner.deleted',
        actor: 'ada',
        details: {
          planner_id: planner.id,
          name: 'audited 2',
          script_sha256: mine[1].details.script_sha256,
        },
      }),
    ]);
    const verify = await api.request('GET', '/api/audit/verify', { token: auditor });
    expect(verify.body.ok).toBe(true);
    const other = await api.request('GET', '/api/audit?type=computer_use.planner.', {
      token: globex,
    });
    expect(other.body.items).toEqual([]);
  });

  it('gives the engine a planner for a live scripted planner of the tenant or a model, and null otherwise', async () => {
    const service = api.app.get(PlannersService);
    const { planner } = (await create({ name: 'for the engine', script: small })).body;
    const live = await service.plannerFor('acme', planner.id);
    expect(live).toBeInstanceOf(ScriptedPlanner);
    expect((live as ScriptedPlanner).script).toEqual(planner.script);
    expect((await service.findScripted('acme', planner.id))?.name).toBe('for the engine');

    expect(await service.plannerFor('globex', planner.id)).toBeNull();
    expect(
      await service.plannerFor('acme', 'scripted-00000000-0000-4000-8000-000000000000'),
    ).toBeNull();
    expect(await service.plannerFor('acme', { provider: 'anthropic', model: 'x' })).toBeInstanceOf(
      ModelPlanner,
    );
    // No planner named and no deployment default model (DEFAULT_MODEL_PROVIDER unset here).
    expect(await service.plannerFor('acme', null)).toBeNull();

    await api.request('DELETE', `/api/planners/${planner.id}`, { token: admin });
    expect(await service.plannerFor('acme', planner.id)).toBeNull();
    expect(await service.findScripted('acme', planner.id)).toBeNull();
  });
});

/** The JSON block under "### Example: …VA02…" in docs/api.md. */
function exampleInDocs(): unknown {
  const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8');
  const at = doc.search(/^### Example: .*VA02/m);
  expect(at).toBeGreaterThan(0);
  const block = /```json\n([\s\S]*?)\n```/.exec(doc.slice(at));
  if (!block) throw new Error('no JSON block after the VA02 example heading in docs/api.md');
  return JSON.parse(block[1]);
}

describe('the VA02 example on a real sim screen host', () => {
  const TOKEN = 'sim-token-'.padEnd(40, 'x');
  let api: TestApi;
  let host: RunningScreenHost;
  let admin: string;

  beforeAll(async () => {
    api = await startApi();
    admin = (await api.token('acme', 'ada', ['computer_use.admin'])).token;
    host = await startScreenHost({
      backend: 'sim',
      token: TOKEN,
      port: 0,
      insecureLoopback: true,
      testRoutes: true,
    });
  });

  afterAll(async () => {
    await host?.close();
    await api?.close();
  });

  const sim = async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const response = await fetch(host.url + path, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    expect(response.status).toBe(200);
    return response;
  };

  /** What the engine does to show a planner the screen: screenshot and outline, over HTTP. */
  const observe = async (): Promise<ObservedScreen> => {
    const shot = await sim('/screenshot');
    const png = Buffer.from(await shot.arrayBuffer());
    const decoded = PNG.sync.read(png);
    const outline = (await (await sim('/elements')).json()) as OutlineElement[];
    return {
      sha256: createHash('sha256').update(png).digest('hex'),
      pixelSha256: createHash('sha256')
        .update(`${decoded.width}x${decoded.height}:`)
        .update(decoded.data)
        .digest('hex'),
      width: Number(shot.headers.get('x-screen-width')),
      height: Number(shot.headers.get('x-screen-height')),
      png,
      outline,
    };
  };

  it('is the script docs/api.md shows, and the API accepts it as it is', async () => {
    expect(exampleInDocs()).toEqual(VA02_EXAMPLE_SCRIPT);
    const created = await api.request('POST', '/api/planners/scripted', {
      token: admin,
      json: { name: 'VA02: 4711 delivery date', script: exampleInDocs() },
    });
    expect(created.status).toBe(201);
    expect(created.body.planner.script).toEqual(VA02_EXAMPLE_SCRIPT);
  });

  it('resolves every element where it is used and saves order 4711 exactly once', async () => {
    await sim('/sim/reset', { method: 'POST' });
    const created = await api.request('POST', '/api/planners/scripted', {
      token: admin,
      json: { name: 'VA02 on the sim', script: VA02_EXAMPLE_SCRIPT },
    });
    const planner = await api.app.get(PlannersService).plannerFor('acme', created.body.planner.id);
    expect(planner).not.toBeNull();

    const rules = loadRules();
    const steps = VA02_EXAMPLE_SCRIPT.steps;
    const sent: unknown[] = [];
    let state: unknown = null;
    let final: unknown = null;
    // A stand-in for the engine: observe, plan, check with Warden's rules, send; one step at a time.
    for (let n = 1; n <= steps.length + 1; n++) {
      const seen = await observe();
      const result = await planner!.plan({
        tenant: 'acme',
        runId: 'e2e',
        agent: 'sap-orders',
        goal: "change order 4711's delivery date",
        system: 'SAP GUI',
        screenTokenEnv: null,
        step: n,
        screen: seen,
        history: [],
        state,
        look: observe,
        signal: new AbortController().signal,
      });
      const decidedOn = result.screen ?? seen;
      const verdict = checkAction(result.action, decidedOn, rules);
      expect([n, verdict.classification]).not.toEqual([n, 'invalid']);
      const action = verdict.action!;
      const scripted = steps[n - 1]?.action as { element?: { role: string; name: string } };
      if (scripted?.element && (action.action === 'click' || action.action === 'double_click')) {
        // The point lands on the element the script named, on the screen it was decided on.
        const hit = labelAt(decidedOn.outline!, action.x, action.y);
        expect([n, hit?.role, hit?.name]).toEqual([
          n,
          scripted.element.role,
          scripted.element.name,
        ]);
      }
      state = result.state;
      if (action.action === 'done' || action.action === 'fail') {
        final = action;
        break;
      }
      if (action.action !== 'wait') {
        await sim('/action', { json: action });
        sent.push(action);
      }
    }

    expect(final).toEqual({
      action: 'done',
      summary: 'order 4711: Req. Deliv. Date is now 30.04.2026',
    });
    expect(sent).toHaveLength(9);
    const { events } = (await (await sim('/sim/events')).json()) as {
      events: Array<{ type: string; [k: string]: unknown }>;
    };
    expect(events.filter((e) => e.type === 'saved')).toEqual([
      {
        seq: expect.any(Number),
        type: 'saved',
        order: '4711',
        changed: ['reqDelivDate'],
        fields: expect.objectContaining({ reqDelivDate: '30.04.2026' }),
      },
    ]);
    expect(events.filter((e) => e.type === 'transaction')).toEqual([
      { seq: expect.any(Number), type: 'transaction', code: 'VA02' },
    ]);
  });
});
