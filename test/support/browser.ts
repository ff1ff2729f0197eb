import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { ROOT } from '../../scripts/lib/processes';

/**
 * The console in a real browser for the e2e tests: Debian's chromium through playwright-core,
 * headless, one persistent context. Each tab reports script errors, CSP violations and 404s into
 * `problems`, which a suite checks at its end; pages are saved as screenshots under
 * artifacts/console/ for a person to look at (and for the approver guide).
 */

const CHROMIUM = process.env.WARDEN_TEST_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(ROOT, 'artifacts', 'console');

/** An image element, inside `evaluate` callbacks: the test files are compiled without DOM types. */
export type ImageElement = { decode(): Promise<void> };

export interface ConsoleBrowser {
  context: BrowserContext;
  /** Script errors, console errors and 404s of every tab so far. */
  problems: string[];
  /** A new tab (its own sessionStorage, so its own sign-in). */
  tab(): Promise<Page>;
  /** Signs `page` in to the console at `apiUrl` with `token`, and waits for `subject` in the bar. */
  signIn(page: Page, token: string, subject: string): Promise<void>;
  /** Saves the page as artifacts/console/`name`.png. */
  shot(page: Page, name: string): Promise<Buffer>;
  close(): Promise<void>;
}

export async function startBrowser(apiUrl: string): Promise<ConsoleBrowser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'warden-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  const problems: string[] = [];
  return {
    context,
    problems,
    async tab() {
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('response', (response) => {
        if (response.status() === 404) problems.push(`404: ${response.url()}`);
      });
      page.on('console', (message) => {
        // Refusals the tests ask for (a bad token, four-eyes) are logged by the browser as failed loads.
        const expected = /^Failed to load resource: the server responded with a status of 40[13]/;
        if (message.type() === 'error' && !expected.test(message.text())) {
          problems.push(`console error: ${message.text()}`);
        }
      });
      return page;
    },
    async signIn(page, token, subject) {
      await page.goto(`${apiUrl}/console`);
      await page.getByLabel('API token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('.who-subject', { hasText: subject }).waitFor();
    },
    shot: (page, name) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) }),
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
