import { freePort, sleep } from '../../scripts/lib/processes';
import { startApi, TestApi } from '../support/api';
import { startOidcProvider, TestProvider } from '../support/oidc-provider';
import { CookieJar, signInByHttp } from '../support/signing-in';

/**
 * A console session's two ends, with SESSION_IDLE_SECONDS 3 and SESSION_MAX_SECONDS 6 (their own
 * file: passport's strategies are process-wide, so one API per test file).
 */
describe('console session timeouts', () => {
  let provider: TestProvider;
  let api: TestApi;
  const secretEnv = `WARDEN_TEST_OIDC_SECRET_${process.pid}`;

  beforeAll(async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    provider = await startOidcProvider([url], {
      bea: { name: 'Bea', email: 'bea@acme.example', tenant: 'acme', groups: ['approvers'] },
    });
    process.env[secretEnv] = provider.clientSecret;
    api = await startApi(undefined, {
      PORT: String(port),
      PUBLIC_URL: url,
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET_ENV: secretEnv,
      SESSION_IDLE_SECONDS: '3',
      SESSION_MAX_SECONDS: '6',
    });
  });

  afterAll(async () => {
    await api?.close();
    await provider?.close();
    delete process.env[secretEnv];
  });

  const me = (jar: CookieJar) =>
    api.request('GET', '/api/me', {
      headers: { cookie: `warden_session=${jar.get('warden_session')}` },
    });

  it('ends an idle session after SESSION_IDLE_SECONDS', async () => {
    const { jar } = await signInByHttp(api.url, 'bea');
    expect((await me(jar)).status).toBe(200);
    // Used again within the idle time (with two seconds to spare for a loaded machine): still live.
    await sleep(1000);
    expect((await me(jar)).status).toBe(200);
    await sleep(3500);
    const after = await me(jar);
    expect(after.status).toBe(401);
    expect(after.body.message).toMatch(/session is unknown or has ended/);
  });

  it('ends a session in use after SESSION_MAX_SECONDS', async () => {
    const { jar } = await signInByHttp(api.url, 'bea');
    const started = Date.now();
    const statuses: number[] = [];
    while (Date.now() - started < 7500) {
      statuses.push((await me(jar)).status);
      await sleep(500);
    }
    expect(statuses[0]).toBe(200);
    expect(statuses.at(-1)).toBe(401);
    // Used every half second, it was never idle: only the absolute end stopped it, after ~6 s.
    expect(statuses.indexOf(401)).toBeGreaterThanOrEqual(6);
    expect(statuses.slice(statuses.indexOf(401)).every((s) => s === 401)).toBe(true);
  });
});
