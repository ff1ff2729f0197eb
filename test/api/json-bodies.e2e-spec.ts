import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { startStack, Stack } from '../support/stack';

/**
 * How the API reads bodies (docs/api.md, issue 13 §3): JSON sent with a bearer token is JSON whatever
 * the content type (the set-up commands in the docs use `curl -d`, which says form-encoded);
 * anything else is a 400 that says to send JSON; no body nests deeper than 32 levels or has a key
 * named constructor, __proto__ or prototype; and a run refused for want of `agents.operate` is
 * audited like every refused run. Real API and sim screen host, over HTTP.
 */
describe('request bodies', () => {
  let stack: Stack;
  let config: Record<string, unknown>;

  /** What `curl -X … -H "Authorization: Bearer $TOKEN" -d '{…}'` sends. */
  const curl = (method: string, path: string, token: string, json: unknown) =>
    stack.api.request(method, path, {
      token,
      body: JSON.stringify(json),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  beforeAll(async () => {
    stack = await startStack({ noWorker: true });
    const planner = await stack.planner(VA02_EXAMPLE_SCRIPT);
    await stack.configure({ planner });
    config = {
      enabled: true,
      agents: {
        'sap-orders': {
          screen_url: stack.sim.url,
          screen_token_env: stack.sim.tokenEnv,
          screen_tls: { fingerprint_sha256: stack.sim.fingerprint },
          system: 'SAP GUI (sim)',
          max_steps: 20,
          max_seconds: 300,
          planner,
        },
      },
    };
  });

  afterAll(async () => {
    await stack?.close();
  });

  describe('with a bearer token, JSON in any content type', () => {
    it('takes the documented curl set-up command: PUT /api/admin/computer-use, form-encoded', async () => {
      const put = await curl('PUT', '/api/admin/computer-use', stack.tokens.admin, config);
      expect([put.status, put.body.message]).toEqual([200, undefined]);
      expect(put.body.agents['sap-orders']).toMatchObject({ screen_url: stack.sim.url });
    });

    it('starts a run from the documented curl command: POST /api/computer-use/runs, form-encoded', async () => {
      const started = await curl('POST', '/api/computer-use/runs', stack.tokens.operator, {
        agent: 'sap-orders',
        goal: 'change order 4711',
      });
      expect([started.status, started.body.message]).toEqual([201, undefined]);
      expect(started.body).toMatchObject({ agent: 'sap-orders', goal: 'change order 4711' });
      await stack.api.request('POST', `/api/computer-use/runs/${started.body.id}/cancel`, {
        token: stack.tokens.operator,
      });
    });

    it.each([
      ['text/plain'],
      ['application/octet-stream'],
      ['application/vnd.api+json'],
      ['json'], // no media type at all: Fastify alone answers 415
      ['text/plain;;'],
      [null],
    ])('reads JSON sent as %s', async (type) => {
      const json = JSON.stringify({ paused: false });
      const pause = await stack.api.request('PUT', '/api/admin/pause', {
        token: stack.tokens.admin,
        // fetch sends a string as text/plain, and bytes without a content type.
        body: type ? json : Buffer.from(json),
        headers: type ? { 'content-type': type } : {},
      });
      expect([pause.status, pause.body.message]).toEqual([200, undefined]);
    });

    it.each([
      ['form fields', 'agent=sap-orders&goal=change+4711', 'application/x-www-form-urlencoded'],
      ['text', 'change order 4711', 'text/plain'],
      ['broken JSON', '{"agent": "sap-orders",', 'application/json'],
    ])('refuses %s with a 400 that says to send JSON', async (_, body, type) => {
      const bad = await stack.api.request('POST', '/api/computer-use/runs', {
        token: stack.tokens.operator,
        body,
        headers: { 'content-type': type },
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: expect.stringMatching(
          /^the request body is not valid JSON \(.+\): send the body as JSON \(Content-Type: application\/json\)$/,
        ),
      });
    });

    it('reads an empty body as no body', async () => {
      const cancel = await stack.api.request(
        'POST',
        '/api/computer-use/runs/7b0c6d3e-2f4a-4c1e-9a8b-1d2e3f4a5b6c/cancel',
        {
          token: stack.tokens.operator,
          body: '',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
      );
      expect(cancel.status).toBe(404);
    });
  });

  describe('without a bearer token', () => {
    it('keeps the strict check: only application/json, else 415 saying so', async () => {
      const form = await stack.api.request('PUT', '/api/admin/computer-use', {
        body: JSON.stringify(config),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status).toBe(415);
      expect(form.body).toEqual({
        statusCode: 415,
        error: 'Unsupported Media Type',
        message:
          'the content type application/x-www-form-urlencoded is not accepted: send the body as JSON (Content-Type: application/json)',
      });
      const none = await stack.api.request('PUT', '/api/admin/computer-use', {
        body: Buffer.from(JSON.stringify(config)),
      });
      expect([none.status, none.body.message]).toEqual([
        415,
        'a body without a content type is not accepted: send the body as JSON (Content-Type: application/json)',
      ]);
      const json = await stack.api.request('PUT', '/api/admin/computer-use', { json: config });
      expect(json.status).toBe(401);
    });
  });

  describe('a run refused for want of agents.operate', () => {
    const refusals = async () =>
      (
        await stack.api.request('GET', '/api/audit?type=computer_use.refused', {
          token: stack.tokens.auditor,
        })
      ).body.items as Array<Record<string, any>>;

    it('is answered 403 and audited computer_use.refused in the token tenant, with what was missing', async () => {
      const before = (await refusals()).length;
      const refused = await stack.api.request('POST', '/api/computer-use/runs', {
        token: stack.tokens.approver,
        json: { agent: 'sap-orders', goal: 'change order 4711' },
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        message: 'this needs the permission agents.operate',
      });
      const events = await refusals();
      expect(events).toHaveLength(before + 1);
      expect(events.at(-1)).toMatchObject({
        tenant: 'acme',
        type: 'computer_use.refused',
        actor: 'bob',
        run_id: null,
        details: {
          agent: 'sap-orders',
          goal: 'change order 4711',
          why: 'this needs the permission agents.operate',
          reason: 'no_permission',
          missing_permission: ['agents.operate'],
        },
      });
      // Still one chain: the event is linked like every other.
      const verify = await stack.api.request('GET', '/api/audit/verify', {
        token: stack.tokens.auditor,
      });
      expect(verify.body.ok).toBe(true);
    });

    it('records no agent that is not a string, and other routes refused with 403 record nothing', async () => {
      const before = (await refusals()).length;
      const odd = await stack.api.request('POST', '/api/computer-use/runs', {
        token: stack.tokens.auditor,
        json: { agent: { name: 'sap-orders' } },
      });
      expect(odd.status).toBe(403);
      const events = await refusals();
      expect(events).toHaveLength(before + 1);
      expect(events.at(-1)!.details).toEqual({
        why: 'this needs the permission agents.operate',
        reason: 'no_permission',
        missing_permission: ['agents.operate'],
      });

      const notARun = await stack.api.request('PUT', '/api/admin/pause', {
        token: stack.tokens.approver,
        json: { paused: true, reason: 'x' },
      });
      expect(notARun.status).toBe(403);
      expect(await refusals()).toHaveLength(before + 1);
    });
  });

  describe('what no body may hold', () => {
    /** Every route that reads a body, from the OpenAPI document: new ones are covered too. */
    const bodyRoutes = async () => {
      const doc = (await stack.api.request('GET', '/api/docs-json')).body;
      return Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => method !== 'get')
          .map((method) => [
            method.toUpperCase(),
            path.replace(/\{[^}]+\}/g, '7b0c6d3e-2f4a-4c1e-9a8b-1d2e3f4a5b6c'),
          ]),
      );
    };

    it('refuses JSON nested deeper than 32 levels with a 400 on every route that takes a body', async () => {
      const routes = await bodyRoutes();
      expect(routes.length).toBeGreaterThanOrEqual(10);
      const body = `{"goal": ${'['.repeat(40)}${']'.repeat(40)}}`;
      for (const [method, path] of routes) {
        for (const type of ['application/json', 'text/plain']) {
          const deep = await stack.api.request(method, path, {
            token: stack.tokens.admin,
            body,
            headers: { 'content-type': type },
          });
          expect([method, path, deep.status, deep.body.message]).toEqual([
            method,
            path,
            400,
            expect.stringMatching(/^the body nests deeper than 32 levels \(at goal\[0\]\[0\]/),
          ]);
        }
      }
      // 32 levels are fine: the refusal is about depth, not the route.
      const ok = await stack.api.request('PUT', '/api/admin/pause', {
        token: stack.tokens.admin,
        body: `{"paused": false, "x": ${'['.repeat(31)}${']'.repeat(31)}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(ok.body.message).toBe('property x should not exist');
    });

    it('refuses a key named constructor in the config with a 400 naming its path (it was a 500)', async () => {
      const bad = await stack.api.request('PUT', '/api/admin/computer-use', {
        token: stack.tokens.admin,
        body: '{"enabled":true,"agents":{"a":{"planner":{"constructor":1}}}}',
        headers: { 'content-type': 'application/json' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message:
          'the body has a key named "constructor" at agents.a.planner.constructor: keys named __proto__, constructor, prototype are refused',
      });
    });

    it.each([
      [
        'PUT',
        '/api/admin/computer-use',
        '{"enabled":true,"__proto__":{"enabled":false}}',
        '__proto__',
      ],
      [
        'POST',
        '/api/planners/scripted',
        '{"name":"x","script":{"steps":[{"prototype":{}}]}}',
        'script.steps[0].prototype',
      ],
      [
        'POST',
        '/api/computer-use/runs',
        '{"agent":"sap-orders","goal":"x","constructor":{"prototype":{}}}',
        'constructor',
      ],
    ])('refuses such keys on %s %s, wherever they are', async (method, path, body, at) => {
      const bad = await stack.api.request(method, path, {
        token: stack.tokens.weakener,
        body,
        headers: { 'content-type': 'text/plain' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain(
        ` at ${at}: keys named __proto__, constructor, prototype are refused`,
      );
    });

    it('refuses a string PostgreSQL cannot store (NUL, half a surrogate pair) naming where it is (it was a 500)', async () => {
      for (const goal of ['a\\u0000b', '\\udfff\\ud800']) {
        const bad = await stack.api.request('POST', '/api/computer-use/runs', {
          token: stack.tokens.operator,
          body: `{"agent":"sap-orders","goal":"${goal}"}`,
          headers: { 'content-type': 'application/json' },
        });
        expect([bad.status, bad.body.message]).toEqual([
          400,
          'the body has a string at goal with a NUL character (\\u0000) or half of a surrogate pair, which is not text',
        ]);
      }
    });
  });
});
