import { Page } from 'playwright-core';
import type { ConsoleBrowser } from '../support/browser';
import {
  type SignInStack,
  signInThroughProvider,
  startSignInStack,
} from '../support/oidc-provider';
import type { Stack } from '../support/stack';

/**
 * Signing in to the console with the company account, in chromium, through a real OpenID provider
 * (oidc-provider in its own process, its own login page): an approver sees and decides the inbox,
 * a person whose groups map to nothing is told so, and sign-out ends the session at Warden.
 */
describe('the console with the company sign-in', () => {
  let signIn: SignInStack;
  let stack: Stack;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    signIn = await startSignInStack(
      {
        bea: {
          name: 'Bea Approver',
          email: 'bea@acme.example',
          tenant: 'acme',
          groups: ['warden-approvers', 'staff'],
        },
        carl: { name: 'Carl Sales', email: 'carl@acme.example', tenant: 'acme', groups: ['sales'] },
      },
      { 'warden-approvers': ['agents.approve'] },
    );
    ({ stack, browser } = signIn);
  });

  afterAll(async () => {
    await signIn?.close();
  });

  /** Through the provider's own login page (any password), back to the console. */
  const signInAs = (page: Page, login: string) =>
    signInThroughProvider(page, `${stack.api.url}/console`, login);

  const sessionCookie = async () =>
    (await browser.context.cookies(stack.api.url)).find((c) => c.name === 'warden_session');

  it('signs an approver in, shows the inbox, approves, and signs out at Warden', async () => {
    const planner = await stack.planner({
      steps: [
        { action: { action: 'click', element: { role: 'button', name: 'Save' } } },
        { action: { action: 'done', summary: 'saved' } },
      ],
    });
    await stack.configure({ planner });
    const run = await stack.start('change order 4711');
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval');

    const page = await browser.tab();
    await page.goto(`${stack.api.url}/console`);
    await page.getByRole('link', { name: 'Sign in with your company account' }).waitFor();
    await browser.shot(page, 'signin-company');
    await signInAs(page, 'bea');
    expect(new URL(page.url()).pathname).toBe('/console/approvals');
    await expect(page.locator('#who').textContent()).resolves.toMatch(
      /bea in tenant acme.*May approve held writes/,
    );
    // Nothing of the session is in reach of the page's scripts but through the API.
    const cookie = await sessionCookie();
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // The entry is named once the run behind it says its system.
    await page.getByRole('link', { name: 'SAP GUI (sim) · Click “Save”' }).click();
    await browser.shot(page, 'approval-company-account');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('You approved this write.').waitFor();
    const approval = await stack.api.request('GET', `/api/approvals/${held.pending_approval.id}`, {
      token: stack.tokens.approver,
    });
    expect(approval.body).toMatchObject({ status: 'approved', decided_by: 'bea' });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the Warden console' }).waitFor();
    await expect(page.getByRole('status').first().textContent()).resolves.toBe('You signed out.');
    // The old cookie is worth nothing at Warden now.
    let status = 0;
    for (let i = 0; i < 50 && status !== 401; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (
        await stack.api.request('GET', '/api/me', {
          headers: { cookie: `warden_session=${cookie!.value}` },
        })
      ).status;
    }
    expect(status).toBe(401);
    const ended = await stack.api.db.sql(`SELECT revoked_at FROM sessions WHERE subject = 'bea'`);
    expect(ended).toEqual([{ revoked_at: expect.any(Date) }]);
    await page.close();
    // The provider's own session would sign bea in again without its login page.
    await browser.context.clearCookies();
  });

  it('tells a person whose groups map to nothing, and the API refuses them approvals', async () => {
    const page = await browser.tab();
    await signInAs(page, 'carl');
    await expect(page.locator('main').textContent()).resolves.toMatch(
      /Your account has none of the permissions the console uses: none of your groups \(sales\)/,
    );
    await page.goto(`${stack.api.url}/console/approvals`);
    await page.getByRole('heading', { name: 'Approvals: not for your account' }).waitFor();
    await browser.shot(page, 'approvals-not-for-account');
    const cookie = await sessionCookie();
    const approvals = await stack.api.request('GET', '/api/approvals', {
      headers: { cookie: `warden_session=${cookie!.value}` },
    });
    expect(approvals.status).toBe(403);
    await page.close();
    await browser.context.clearCookies();
  });

  it('had no script errors, CSP violations or missing files', () => {
    expect(browser.problems).toEqual([]);
  });
});
