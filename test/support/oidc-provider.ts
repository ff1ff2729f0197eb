import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
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
