import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PERMISSIONS } from '../../src/auth/permission';
import { TokensService } from '../../src/auth/tokens.service';
import { startApi, TestApi } from '../support/api';
import { ROOT } from '../../scripts/lib/processes';

/**
 * Every route × every kind of caller, with the exact status expected in each cell. A route added
 * to the API without a row here fails the coverage test below.
 */
type Column =
  | 'no token'
  | 'unknown token'
  | 'revoked token'
  | 'no permissions'
  | (typeof PERMISSIONS)[number]
  | 'other tenant (all permissions)';

const COLUMNS: Column[] = [
  'no token',
  'unknown token',
  'revoked token',
  'no permissions',
  ...PERMISSIONS,
  'other tenant (all permissions)',
];

//                                            none unk  rev  empty admin oper appr audit weak serve other
const MATRIX: Array<[string, string, number[]]> = [
  // Anyone signed in, even with no permission (a person whose groups map to nothing learns so).
  // The worker API of remote planners: planners.serve only; past the guard, no query or body (400).
  ['GET', '/api/planner-work', [401, 401, 401, 403, 403, 403, 403, 403, 403, 400, 400]],
  ['POST', '/api/planner-work/{id}/claim', [401, 401, 401, 403, 403, 403, 403, 403, 403, 400, 400]],
  [
    'POST',
    '/api/planner-work/{id}/answer',
    [401, 401, 401, 403, 403, 403, 403, 403, 403, 400, 400],
  ],
  ['GET', '/api/me', [401, 401, 401, 200, 200, 200, 200, 200, 200, 200, 200]],
  ['GET', '/api/admin/access', [401, 401, 401, 403, 200, 403, 403, 403, 403, 403, 200]],
  ['PUT', '/api/admin/access', [401, 401, 401, 403, 400, 403, 403, 403, 403, 403, 400]],
  ['GET', '/api/audit', [401, 401, 401, 403, 403, 403, 403, 200, 403, 403, 200]],
  ['GET', '/api/audit/verify', [401, 401, 401, 403, 403, 403, 403, 200, 403, 403, 200]],
  ['GET', '/api/admin/computer-use', [401, 401, 401, 403, 200, 403, 403, 403, 403, 403, 200]],
  // No body: past the guard, the config is refused (400).
  ['PUT', '/api/admin/computer-use', [401, 401, 401, 403, 400, 403, 403, 403, 403, 403, 400]],
  [
    'GET',
    '/api/admin/computer-use/versions',
    [401, 401, 401, 403, 200, 403, 403, 403, 403, 403, 200],
  ],
  // `{name}` is no agent of the tenant: past the guard, a 404 (GET) or a 400 for the missing body (PUT).
  [
    'GET',
    '/api/admin/agents/{name}/kill-switch',
    [401, 401, 401, 403, 404, 403, 403, 403, 403, 403, 404],
  ],
  [
    'PUT',
    '/api/admin/agents/{name}/kill-switch',
    [401, 401, 401, 403, 400, 403, 403, 403, 403, 403, 400],
  ],
  // The tenant's pause: no body is a 400 past the guard.
  ['GET', '/api/admin/pause', [401, 401, 401, 403, 200, 403, 403, 403, 403, 403, 200]],
  ['GET', '/api/admin/deliveries', [401, 401, 401, 403, 200, 403, 403, 403, 403, 403, 200]],
  ['GET', '/api/admin/inventory', [401, 401, 401, 403, 200, 403, 403, 403, 403, 403, 200]],
  ['GET', '/api/admin/retention', [401, 401, 401, 403, 200, 403, 403, 403, 403, 403, 200]],
  ['PUT', '/api/admin/retention', [401, 401, 401, 403, 400, 403, 403, 403, 403, 403, 400]],
  ['PUT', '/api/admin/pause', [401, 401, 401, 403, 400, 403, 403, 403, 403, 403, 400]],
  // Audit sinks: no body is a 400 past the guard.
  ['GET', '/api/admin/audit-sinks', [401, 401, 401, 403, 200, 403, 403, 403, 403, 403, 200]],
  ['PUT', '/api/admin/audit-sinks', [401, 401, 401, 403, 400, 403, 403, 403, 403, 403, 400]],
  // Planners: no body is a 400 past the guard; `{id}` is no planner of the tenant, a 404.
  ['POST', '/api/planners/scripted', [401, 401, 401, 403, 400, 403, 403, 403, 403, 403, 400]],
  ['GET', '/api/planners', [401, 401, 401, 403, 200, 403, 403, 403, 403, 403, 200]],
  ['GET', '/api/planners/scripted', [401, 401, 401, 403, 200, 403, 403, 403, 403, 403, 200]],
  ['GET', '/api/planners/{id}', [401, 401, 401, 403, 404, 403, 403, 403, 403, 403, 404]],
  ['PUT', '/api/planners/{id}', [401, 401, 401, 403, 400, 403, 403, 403, 403, 403, 400]],
  ['DELETE', '/api/planners/{id}', [401, 401, 401, 403, 404, 403, 403, 403, 403, 403, 404]],
  [
    'GET',
    '/api/admin/agents/{name}/doctor',
    [401, 401, 401, 403, 404, 403, 403, 403, 403, 403, 404],
  ],
  // Runs and approvals: `{id}` is a UUID that names nothing, so past the guard they are 404s.
  ['POST', '/api/computer-use/runs', [401, 401, 401, 403, 403, 400, 403, 403, 403, 403, 400]],
  ['GET', '/api/computer-use/runs', [401, 401, 401, 403, 403, 200, 403, 200, 403, 403, 200]],
  ['GET', '/api/computer-use/runs/{id}', [401, 401, 401, 403, 403, 404, 403, 404, 403, 403, 404]],
  [
    'GET',
    '/api/computer-use/runs/{id}/steps/{n}/screen',
    [401, 401, 401, 403, 403, 404, 404, 404, 403, 403, 404],
  ],
  [
    'GET',
    '/api/computer-use/runs/{id}/steps/{n}/transcript',
    [401, 401, 401, 403, 403, 404, 403, 404, 403, 403, 404],
  ],
  [
    'PUT',
    '/api/computer-use/runs/{id}/legal-hold',
    [401, 401, 401, 403, 400, 403, 403, 403, 403, 403, 400],
  ],
  [
    'POST',
    '/api/computer-use/runs/{id}/resume',
    [401, 401, 401, 403, 403, 404, 403, 403, 403, 403, 404],
  ],
  [
    'POST',
    '/api/computer-use/runs/{id}/cancel',
    [401, 401, 401, 403, 403, 404, 403, 403, 403, 403, 404],
  ],
  // Saving a run as a routine: no body is a 400 past the guard.
  [
    'POST',
    '/api/computer-use/runs/{id}/script',
    [401, 401, 401, 403, 400, 403, 403, 403, 403, 403, 400],
  ],
  ['GET', '/api/approvals', [401, 401, 401, 403, 403, 403, 200, 403, 403, 403, 200]],
  ['GET', '/api/approvals/{id}', [401, 401, 401, 403, 403, 403, 404, 403, 403, 403, 404]],
  ['POST', '/api/approvals/{id}/approve', [401, 401, 401, 403, 403, 403, 404, 403, 403, 403, 404]],
  ['POST', '/api/approvals/{id}/reject', [401, 401, 401, 403, 403, 403, 404, 403, 403, 403, 404]],
  // Oversight: the console's report of a page view (`{id}` names nothing: 404; `{view}` stays
  // a word, not a UUID: 400), and the report for admins and auditors.
  ['POST', '/api/approvals/{id}/views', [401, 401, 401, 403, 403, 403, 404, 403, 403, 403, 404]],
  [
    'POST',
    '/api/approvals/{id}/views/{view}/changes-seen',
    [401, 401, 401, 403, 403, 403, 400, 403, 403, 403, 400],
  ],
  ['GET', '/api/admin/oversight', [401, 401, 401, 403, 200, 403, 403, 200, 403, 403, 200]],
  // Seeding a test approval: admins only; no body is a 400 past the guard.
  ['POST', '/api/admin/oversight/tests', [401, 401, 401, 403, 400, 403, 403, 403, 403, 403, 400]],
  // Linking chat accounts (approvers): no body is a 400 past the guard; `{id}` links nothing (404).
  ['GET', '/api/chat/links', [401, 401, 401, 403, 403, 403, 200, 403, 403, 403, 200]],
  ['POST', '/api/chat/links', [401, 401, 401, 403, 403, 403, 400, 403, 403, 403, 400]],
  ['POST', '/api/chat/links/preview', [401, 401, 401, 403, 403, 403, 400, 403, 403, 403, 400]],
  ['DELETE', '/api/chat/links/{id}', [401, 401, 401, 403, 403, 403, 404, 403, 403, 403, 404]],
  // Slack's and Teams' endpoints are public (their own signature or token proves a request):
  // without a body, a 400 for everyone.
  ['POST', '/api/chat/slack/actions', [400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400]],
  ['POST', '/api/chat/teams/messages', [400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400]],
  // The console's read of the run behind a waiting action, for approvers.
  [
    'GET',
    '/api/console/approvals/{id}/run',
    [401, 401, 401, 403, 403, 403, 404, 403, 403, 403, 404],
  ],
  ['GET', '/health/live', [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200]],
  ['GET', '/health/ready', [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200]],
  ['GET', '/metrics', [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200]],
  ['GET', '/api/docs-json', [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200]],
  ['GET', '/api/docs', [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200]],
];

const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('permission matrix', () => {
  let api: TestApi;
  const tokens = new Map<Column, string | undefined>();

  beforeAll(async () => {
    api = await startApi();
    tokens.set('no token', undefined);
    tokens.set('unknown token', 'wdn_' + 'x'.repeat(43));
    const revoked = await api.token('acme', 'mallory', [...PERMISSIONS]);
    await api.app.get(TokensService).revoke(revoked.id, 'test');
    tokens.set('revoked token', revoked.token);
    tokens.set('no permissions', (await api.token('acme', 'nobody', [])).token);
    for (const permission of PERMISSIONS) {
      tokens.set(permission, (await api.token('acme', `only-${permission}`, [permission])).token);
    }
    tokens.set(
      'other tenant (all permissions)',
      (await api.token('globex', 'gina', [...PERMISSIONS])).token,
    );
  });

  afterAll(async () => {
    await api.close();
  });

  const cells = MATRIX.flatMap(([method, path, statuses]) =>
    COLUMNS.map((column, i) => ({ method, path, column, expected: statuses[i] })),
  );

  it.each(cells)(
    '$method $path with $column → $expected',
    async ({ method, path, column, expected }) => {
      // `{id}` becomes a UUID that names nothing, `{n}` a step number; `{name}` stays (no agent).
      const concrete = path.replace('{id}', NOBODY).replace('{n}', '1');
      const result = await api.request(method, concrete, { token: tokens.get(column) });
      expect(result.status).toBe(expected);
      if (expected === 401 || expected === 403) {
        expect(result.body).toEqual({
          statusCode: expected,
          error: expected === 401 ? 'Unauthorized' : 'Forbidden',
          message: expect.any(String),
        });
      }
    },
  );

  it('covers every route the API documents', async () => {
    const doc = await api.request('GET', '/api/docs-json');
    const documented = Object.entries(
      doc.body.paths as Record<string, Record<string, unknown>>,
    ).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    const inMatrix = new Set(MATRIX.map(([method, path]) => `${method} ${path}`));
    expect(documented.length).toBeGreaterThan(0);
    expect(documented.filter((route) => !inMatrix.has(route))).toEqual([]);
  });

  it('serves the OpenAPI document committed as docs/openapi.json', async () => {
    // After changing a route: `npm run docs:openapi` writes the file from the running API.
    const doc = await api.request('GET', '/api/docs-json');
    const served = `${JSON.stringify(doc.body, null, 2)}\n`;
    const file = path.join(ROOT, 'docs', 'openapi.json');
    if (process.env.WARDEN_WRITE_OPENAPI === '1') writeFileSync(file, served);
    expect(readFileSync(file, 'utf8')).toBe(served);
  });

  it('refuses a token sent in the query string, even a valid one', async () => {
    const token = tokens.get('audit.read')!;
    const result = await api.request('GET', `/api/audit?access_token=${token}`);
    expect(result.status).toBe(401);
    expect(result.body.message).toMatch(/Authorization header/);
  });

  it('says who the caller is', async () => {
    const result = await api.request('GET', '/api/me', { token: tokens.get('agents.approve') });
    expect(result.body).toEqual({
      tenant: 'acme',
      subject: 'only-agents.approve',
      token_id: expect.any(String),
      permissions: ['agents.approve'],
      tags: [],
    });
  });
});
