import { freePort } from '../../scripts/lib/processes';
import { startApi, TestApi } from '../support/api';
import { startOidcProvider, TestProvider, TestUser } from '../support/oidc-provider';
import { CookieJar, signInByHttp } from '../support/signing-in';

/**
 * Console sessions over HTTP against a real OpenID provider (oidc-provider, its own process):
 * the cookie, CSRF, never a bearer token and a cookie together, sign-out (the idle and absolute
 * ends: session-timeouts.e2e-spec.ts), and the group mapping (governance.weaken, changes that apply without signing in again).
 */
const USERS: Record<string, TestUser> = {
  bea: {
    name: 'Bea Approver',
    email: 'bea@acme.example',
    tenant: 'acme',
    groups: ['warden-approvers'],
  },
  carl: { name: 'Carl Sales', email: 'carl@acme.example', tenant: 'acme', groups: ['sales'] },
  ada: { name: 'Ada Admin', email: 'ada@acme.example', tenant: 'acme', groups: ['warden-admins'] },
  gina: {
    name: 'Gina',
    email: 'gina@globex.example',
    tenant: 'globex',
    groups: ['warden-approvers'],
  },
  nobody: { name: 'No Tenant', email: 'x@example', tenant: 'Not A Tenant', groups: [] },
};

describe('console sessions (OpenID Connect)', () => {
  let provider: TestProvider;
  let api: TestApi;
  let adminToken: string;
  let weakenerToken: string;
  let auditorToken: string;
  const secretEnv = `WARDEN_TEST_OIDC_SECRET_${process.pid}`;

  const oidcEnv = (url: string, port: number) => ({
    PORT: String(port),
    PUBLIC_URL: url,
    OIDC_ISSUER_URL: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET_ENV: secretEnv,
  });

  beforeAll(async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    provider = await startOidcProvider([url], USERS);
    process.env[secretEnv] = provider.clientSecret;
    api = await startApi(undefined, oidcEnv(url, port));
    adminToken = (await api.token('acme', 'ada-token', ['computer_use.admin'])).token;
    weakenerToken = (await api.token('acme', 'wes', ['computer_use.admin', 'governance.weaken']))
      .token;
    auditorToken = (await api.token('acme', 'aud', ['audit.read'])).token;
    const mapped = await api.request('PUT', '/api/admin/access', {
      token: adminToken,
      json: {
        groups: { 'warden-approvers': ['agents.approve'], 'warden-admins': ['computer_use.admin'] },
      },
    });
    expect(mapped.status).toBe(200);
  });

  afterAll(async () => {
    await api?.close();
    await provider?.close();
    delete process.env[secretEnv];
  });

  const sessionCookie = (jar: CookieJar) => `warden_session=${jar.get('warden_session')}`;
  const withSession = (jar: CookieJar, extra: Record<string, string> = {}) => ({
    headers: { cookie: sessionCookie(jar), ...extra },
  });
  const me = async (on: TestApi, jar: CookieJar) => on.request('GET', '/api/me', withSession(jar));

  it('signs a person in: a session cookie, their groups mapped to permissions, audited', async () => {
    const { jar, landed } = await signInByHttp(api.url, 'bea');
    expect(landed).toBe('/console');
    expect(jar.get('warden_session')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const who = await me(api, jar);
    expect(who.status).toBe(200);
    expect(who.body).toEqual({
      tenant: 'acme',
      subject: 'bea',
      token_id: expect.any(String),
      permissions: ['agents.approve'],
      tags: [],
      session: {
        csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        groups: ['warden-approvers'],
      },
    });
    expect((await api.request('GET', '/api/approvals', withSession(jar))).status).toBe(200);
    // Only the cookie's SHA-256 is stored.
    const rows = await api.db.sql(`SELECT id_sha256 FROM sessions`);
    expect(JSON.stringify(rows)).not.toContain(jar.get('warden_session'));
    const audit = await api.request('GET', '/api/audit?type=session.signed_in', {
      token: auditorToken,
    });
    expect(audit.body.items).toContainEqual(
      expect.objectContaining({
        actor: 'bea',
        details: expect.objectContaining({
          name: 'Bea Approver',
          email: 'bea@acme.example',
          issuer: provider.issuer,
          groups: ['warden-approvers'],
        }),
      }),
    );
  });

  it('gives a person in no mapped group no permissions: 403, but they learn who they are', async () => {
    const { jar } = await signInByHttp(api.url, 'carl');
    expect((await me(api, jar)).body.permissions).toEqual([]);
    const approvals = await api.request('GET', '/api/approvals', withSession(jar));
    expect(approvals.status).toBe(403);
    expect(approvals.body.message).toMatch(/agents\.approve/);
  });

  it('keeps tenants apart: the mapping is per tenant', async () => {
    const { jar } = await signInByHttp(api.url, 'gina');
    const who = await me(api, jar);
    expect(who.body).toMatchObject({ tenant: 'globex', permissions: [] });
  });

  it('refuses an account without a usable tenant, and a callback without its sign-in', async () => {
    const { landed } = await signInByHttp(api.url, 'nobody');
    expect(landed).toBe('/console?signin_error=account');
    const r = await fetch(`${api.url}/auth/callback?code=x&state=y`, { redirect: 'manual' });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/console?signin_error=expired');
  });

  it('refuses a change made with the cookie without the CSRF header, or from another Origin', async () => {
    const { jar } = await signInByHttp(api.url, 'ada');
    const csrf = (await me(api, jar)).body.session.csrf_token as string;
    const body = {
      groups: { 'warden-approvers': ['agents.approve'], 'warden-admins': ['computer_use.admin'] },
    };
    const put = (headers: Record<string, string>, raw?: string) =>
      api.request('PUT', '/api/admin/access', {
        headers: { cookie: sessionCookie(jar), ...headers },
        ...(raw === undefined ? { json: body } : { body: raw }),
      });
    const noHeader = await put({ origin: api.url });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.message).toMatch(/X-Warden-CSRF/);
    expect((await put({ origin: api.url, 'x-warden-csrf': 'wrong' })).status).toBe(403);
    const foreign = await put({ origin: 'http://evil.example', 'x-warden-csrf': csrf });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toMatch(/must come from/);
    expect((await put({ 'x-warden-csrf': csrf })).status).toBe(403);
    const form = await put(
      { origin: api.url, 'x-warden-csrf': csrf, 'content-type': 'text/plain' },
      JSON.stringify(body),
    );
    expect(form.status).toBe(415);
    expect((await put({ origin: api.url, 'x-warden-csrf': csrf })).status).toBe(200);
    // Reads need neither.
    expect((await api.request('GET', '/api/admin/access', withSession(jar))).status).toBe(200);
  });

  it('refuses a request with both a bearer token and a session cookie (400), and an unknown cookie (401)', async () => {
    const { jar } = await signInByHttp(api.url, 'ada');
    const both = await api.request('GET', '/api/me', { token: adminToken, ...withSession(jar) });
    expect(both.status).toBe(400);
    expect(both.body.message).toMatch(/not both/);
    const forged = await api.request('GET', '/api/me', {
      headers: { cookie: `warden_session=${'A'.repeat(43)}` },
    });
    expect(forged.status).toBe(401);
    // A bearer token alone works as before.
    expect((await api.request('GET', '/api/me', { token: adminToken })).status).toBe(200);
  });

  it('lets only who holds governance.weaken map a group to it', async () => {
    const { jar } = await signInByHttp(api.url, 'ada');
    const csrf = (await me(api, jar)).body.session.csrf_token as string;
    const headers = { cookie: sessionCookie(jar), origin: api.url, 'x-warden-csrf': csrf };
    const current = (await api.request('GET', '/api/admin/access', { token: adminToken })).body
      .groups;
    const weakening = { groups: { ...current, 'warden-weakeners': ['governance.weaken'] } };
    const refused = await api.request('PUT', '/api/admin/access', { headers, json: weakening });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/warden-weakeners to governance\.weaken needs/);
    const byWeakener = await api.request('PUT', '/api/admin/access', {
      token: weakenerToken,
      json: weakening,
    });
    expect(byWeakener.status).toBe(200);
    // Keeping what is mapped is no new weakening: the admin may change another group.
    const other = { groups: { ...weakening.groups, auditors: ['audit.read'] } };
    expect((await api.request('PUT', '/api/admin/access', { headers, json: other })).status).toBe(
      200,
    );
    const audit = await api.request('GET', '/api/audit?type=access.changed', {
      token: auditorToken,
    });
    expect(audit.body.items.map((e: { actor: string }) => e.actor)).toEqual(
      expect.arrayContaining(['wes', 'ada']),
    );
    // Nor may a plain admin make admins of the group that holds governance.weaken.
    const admins = {
      groups: { ...other.groups, 'warden-weakeners': ['computer_use.admin', 'governance.weaken'] },
    };
    const made = await api.request('PUT', '/api/admin/access', { headers, json: admins });
    expect(made.status).toBe(403);
    expect(made.body.message).toBe(
      'mapping warden-weakeners, which holds governance.weaken, to computer_use.admin needs the permission governance.weaken',
    );
    // …or of another group, whose members may be in that one too.
    const elsewhere = { groups: { ...other.groups, 'sap-team': ['computer_use.admin'] } };
    const beside = await api.request('PUT', '/api/admin/access', { headers, json: elsewhere });
    expect(beside.status).toBe(403);
    expect(beside.body.message).toContain('while warden-weakeners holds governance.weaken');
    const unchanged = await api.request('GET', '/api/admin/access', { token: adminToken });
    expect(unchanged.body.groups).toEqual(other.groups);
    expect(
      (await api.request('PUT', '/api/admin/access', { token: weakenerToken, json: admins }))
        .status,
    ).toBe(200);
  });

  it("applies a mapping change to a person's next request, without signing in again", async () => {
    const { jar } = await signInByHttp(api.url, 'carl');
    expect((await api.request('GET', '/api/approvals', withSession(jar))).status).toBe(403);
    const before = (await api.request('GET', '/api/admin/access', { token: adminToken })).body
      .groups;
    const put = (groups: unknown) =>
      api.request('PUT', '/api/admin/access', { token: adminToken, json: { groups } });
    expect((await put({ ...before, sales: ['agents.approve'] })).status).toBe(200);
    expect((await api.request('GET', '/api/approvals', withSession(jar))).status).toBe(200);
    expect((await put(before)).status).toBe(200);
    expect((await api.request('GET', '/api/approvals', withSession(jar))).status).toBe(403);
  });

  it('ends the session at sign-out: the old cookie is refused afterwards', async () => {
    const { jar } = await signInByHttp(api.url, 'bea');
    const csrf = (await me(api, jar)).body.session.csrf_token as string;
    const noCsrf = await api.request('POST', '/auth/logout', withSession(jar, { origin: api.url }));
    expect(noCsrf.status).toBe(403);
    const out = await api.request(
      'POST',
      '/auth/logout',
      withSession(jar, { origin: api.url, 'x-warden-csrf': csrf }),
    );
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^warden_session=; .*Max-Age=0/);
    const after = await me(api, jar);
    expect(after.status).toBe(401);
    expect(after.body.message).toMatch(/session is unknown or has ended/);
  });

  it('serves the console its sign-in options', async () => {
    expect((await api.request('GET', '/auth/status')).body).toEqual({ oidc: true });
  });
});
