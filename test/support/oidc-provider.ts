import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { freePort } from '../../scripts/lib/processes';
import { type ConsoleBrowser, startBrowser } from './browser';
import { type Stack, startStack } from './stack';
import { ROOT, sleep, startEntry, stop, Started, tail } from '../../scripts/lib/processes';

export interface TestUser {
  name: string;
  email: string;
  tenant: string;
  groups: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * Starts test/support/oidc-provider-server.ts (a real `oidc-provider`) as its own process, with
 * one confidential client whose redirect URIs are `${publicUrl}/auth/callback` for each URL.
 */
export async function startOidcProvider(
  publicUrls: string[],
  users: Record<string, TestUser>,
): Promise<TestProvider> {
  const clientId = 'warden-console';
  const clientSecret = randomBytes(24).toString('hex');
  const started: Started = startEntry(
    { label: 'the OpenID provider', source: 'test/support/oidc-provider-server.ts', dist: '' },
    [],
    {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'test',
        OIDC_TEST_PROVIDER: JSON.stringify({
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: publicUrls.map((u) => `${u}/auth/callback`),
          users,
        }),
      },
    },
  );
  const deadline = Date.now() + 30_000;
  while (!started.stdout().includes('"issuer"')) {
    if (started.child.exitCode !== null || Date.now() > deadline) {
      await stop(started.child);
      throw new Error(`the OpenID provider did not start (in ${ROOT}):\n${tail(started)}`);
    }
    await sleep(50);
  }
  const line = started
    .stdout()
    .split('\n')
    .find((l) => l.includes('"issuer"'))!;
  const { issuer } = JSON.parse(line) as { issuer: string };
  return { issuer, clientId, clientSecret, close: () => stop(started.child) };
}

/** Signs `login` in to the console at `consoleUrl` through the provider's own login page (any password). */
export async function signInThroughProvider(
  page: Page,
  consoleUrl: string,
  login: string,
): Promise<void> {
  await page.goto(consoleUrl);
  await page.getByRole('link', { name: 'Sign in with your company account' }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.locator('.who-subject', { hasText: login }).waitFor();
}

/** A stack signing people in through a real OpenID provider. */
export interface ProviderStack {
  provider: TestProvider;
  stack: Stack;
  close(): Promise<void>;
}

/** A stack signing people in through a real OpenID provider, with chromium to sign in with. */
export interface SignInStack extends ProviderStack {
  browser: ConsoleBrowser;
}

/**
 * The provider with these users and the stack (API, worker, sim) configured for it on a known
 * port, `groups` mapped to permissions in tenant acme. People sign in by HTTP
 * (support/signing-in.ts), or with chromium through `startSignInStack`.
 */
export async function startProviderStack(
  users: Record<string, TestUser>,
  groups: Record<string, string[]>,
  env: Record<string, string> = {},
): Promise<ProviderStack> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider([url], users);
  const secretEnv = `WARDEN_TEST_OIDC_SECRET_${randomBytes(4).toString('hex').toUpperCase()}`;
  process.env[secretEnv] = provider.clientSecret;
  const stack = await startStack({
    env: {
      PORT: String(port),
      PUBLIC_URL: url,
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET_ENV: secretEnv,
      ...env,
    },
  });
  const mapped = await stack.api.request('PUT', '/api/admin/access', {
    token: stack.tokens.admin,
    json: { groups },
  });
  if (mapped.status !== 200) throw new Error(`access: ${mapped.status} ${mapped.text}`);
  return {
    provider,
    stack,
    close: async () => {
      await stack.close();
      await provider.close();
      delete process.env[secretEnv];
    },
  };
}

/**
 * `startProviderStack` and chromium, which reaches nothing but loopback: the provider's
 * development login page asks Google for a font and its origin for a favicon, answered here.
 */
export async function startSignInStack(
  users: Record<string, TestUser>,
  groups: Record<string, string[]>,
  env: Record<string, string> = {},
): Promise<SignInStack> {
  const { provider, stack, close } = await startProviderStack(users, groups, env);
  const browser = await startBrowser(stack.api.url);
  await browser.context.route('https://fonts.googleapis.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/css', body: '' }),
  );
  await browser.context.route(`${provider.issuer}/favicon.ico`, (route) =>
    route.fulfill({ status: 204, body: '' }),
  );
  return {
    provider,
    stack,
    browser,
    close: async () => {
      await browser.close();
      await close();
    },
  };
}
