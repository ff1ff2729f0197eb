import { randomBytes } from 'node:crypto';
import type { ConsoleBrowser } from '../support/browser';
import {
  type SignInStack,
  signInThroughProvider,
  startSignInStack,
} from '../support/oidc-provider';
import { type Receiver, startReceiver } from '../support/receivers';
import type { Stack } from '../support/stack';

/**
 * Issue 15, "Done when", in one story: a write held by an agent whose approvers are one IdP group
 * is announced by a signed webhook; its link opens the approval page in chromium; a person whose
 * group may approve in the tenant, but not this agent's writes, is refused; a member of the
 * approver group, signed in through a real OpenID provider's login page, approves; sign-out ends
 * the session at Warden.
 */

jest.setTimeout(180_000);

describe('reaching people: sign-in, approver groups and a webhook, together', () => {
  let signIn: SignInStack;
  let stack: Stack;
  let browser: ConsoleBrowser;
  let receiver: Receiver;
  const hookSecretEnv = `WARDEN_TEST_HOOK_SECRET_${randomBytes(3).toString('hex').toUpperCase()}`;
  const hookSecret = randomBytes(16).toString('hex');

  beforeAll(async () => {
    receiver = await startReceiver(() => hookSecret);
    process.env[hookSecretEnv] = hookSecret;
    signIn = await startSignInStack(
      {
        bea: {
          name: 'Bea Lead',
          email: 'bea@acme.example',
          tenant: 'acme',
          groups: ['warden-approvers', 'sap-leads'],
        },
        dora: {
          name: 'Dora Approver',
          email: 'dora@acme.example',
          tenant: 'acme',
          groups: ['warden-approvers'],
        },
      },
      { 'warden-approvers': ['agents.approve'] },
      { NOTIFY_CA_FILE: receiver.certPath },
    );
    ({ stack, browser } = signIn);
    await stack.grant(hookSecretEnv, receiver.url);
  });

  afterAll(async () => {
    await signIn?.close();
    await receiver?.close();
    delete process.env[hookSecretEnv];
  });

  it('announces the held write, refuses another group, lets the approver group decide, and signs out', async () => {
    await stack.configure({
      planner: await stack.planner({
        steps: [
          { action: { action: 'click', element: { role: 'button', name: 'Save' } } },
          { action: { action: 'done', summary: 'saved' } },
        ],
      }),
      approvers: ['group:sap-leads'],
      notify: [{ kind: 'webhook', url: `${receiver.url}/hook`, secret_env: hookSecretEnv }],
    });
    const run = await stack.start('change order 4711');
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval');
    expect(held.pending_approval.may_decide_now).toEqual(['group:sap-leads']);

    // The webhook announced it, signed; its link is the approval page.
    let announced: any = null;
    for (let i = 0; i < 100 && !announced; i++) {
      const hook = receiver.on('/hook').find((r) => JSON.parse(r.body).event === 'held');
      if (hook) announced = { ...JSON.parse(hook.body), verdict: hook.verdict };
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(announced).toMatchObject({ event: 'held', verdict: { ok: true } });
    const link = String(announced.link);
    expect(link).toContain(held.pending_approval.id);
    expect(link.startsWith(stack.api.url)).toBe(true);

    // Dora may approve in the tenant, but not this agent's writes.
    const dora = await browser.tab();
    await signInThroughProvider(dora, `${stack.api.url}/console`, 'dora');
    await dora.goto(link);
    // The page says so before she presses anything: neither decision is open to her.
    await dora.getByText(/only group:sap-leads may decide writes of agent sap-orders/).waitFor();
    expect(await dora.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    expect(await dora.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    await browser.shot(dora, 'approval-other-group');
    await dora.close();
    await browser.context.clearCookies();

    // Bea is in sap-leads: the link opens the page she approves on.
    const bea = await browser.tab();
    await signInThroughProvider(bea, `${stack.api.url}/console`, 'bea');
    await bea.goto(link);
    await bea.getByRole('button', { name: 'Approve' }).click();
    await bea.getByText('You approved this write.').waitFor();
    const approval = await stack.api.request('GET', `/api/approvals/${held.pending_approval.id}`, {
      token: stack.tokens.approver,
    });
    expect(approval.body).toMatchObject({ status: 'approved', decided_by: 'bea' });

    const cookie = (await browser.context.cookies(stack.api.url)).find(
      (c) => c.name === 'warden_session',
    );
    await bea.getByRole('button', { name: 'Sign out' }).click();
    await bea.getByRole('heading', { name: 'Sign in to the Warden console' }).waitFor();
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
    await bea.close();
    expect(browser.problems).toEqual([]);
  });
});
