import { randomUUID } from 'node:crypto';
import { teamsInvoke } from '../support/chat';
import { type ChatStack, SAVE, startChatStack } from '../support/chat-stack';
import type { Stack } from '../support/stack';
import { until } from '../support/until';

/**
 * Deciding in Teams (docs/notifications.md), through the real API, worker, PostgreSQL and Redis: a
 * card's Action.Execute reaches Warden as the bot's endpoint with a Bot Framework token, verified
 * against a local issuer's OpenID metadata and keys (support/chat.ts): signature, issuer, audience
 * (the agent's bot), expiry, the key's endorsement and the serviceUrl. The invoke is answered with
 * the card the presser sees now.
 */

jest.setTimeout(240_000);

const SERVICE_URL = 'https://smba.trafficmanager.net/emea/';
const BEA_AAD = '5d1e0a3b-7f4c-4a9e-8b2d-1c3e5f7a9b0d';

describe('deciding in Teams', () => {
  let chat: ChatStack;
  let stack: Stack;

  beforeAll(async () => {
    chat = await startChatStack({ browser: true });
    ({ stack } = chat);
    await chat.configure(await stack.planner(SAVE));
  });

  afterAll(async () => {
    await chat?.close();
  });

  beforeEach(async () => {
    await stack.sim.reset();
  });

  afterEach(async () => {
    await chat.cancelRuns();
  });

  /** The card Warden posted for the approval, and its Action.Execute data. */
  const card = async (approvalId: string) =>
    (await until(`the Teams card of ${approvalId}`, async () => {
      const posted = chat.receiver
        .on('/teams')
        .map((r) => JSON.parse(r.body).attachments[0].content)
        .find((c) => JSON.stringify(c).includes(approvalId));
      return posted ?? null;
    }))!;

  async function invoke(o: {
    approvalId: string;
    verb: 'approve' | 'reject';
    aad?: string;
    token?: string | null;
    activityId?: string;
  }) {
    const posted = await card(o.approvalId);
    const action = posted.actions.find((a: any) => a.verb === o.verb);
    const body = teamsInvoke({
      verb: o.verb,
      data: action.data,
      aadObjectId: o.aad ?? BEA_AAD,
      name: 'Bea Lead',
      serviceUrl: SERVICE_URL,
      activityId: o.activityId,
    });
    const token =
      o.token === undefined
        ? await chat.issuer.token({ audience: chat.botAppId, serviceUrl: SERVICE_URL })
        : o.token;
    const answer = await stack.api.request('POST', '/api/chat/teams/messages', {
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      json: body,
    });
    return { ...answer, sent: body };
  }

  const approval = async (id: string) =>
    (await stack.api.request('GET', `/api/approvals/${id}`, { token: stack.tokens.approver })).body;

  it('carries Action.Execute; an unlinked account is offered the link; linked, a press decides and answers with the card', async () => {
    const { approvalId } = await chat.held();
    const posted = await card(approvalId);
    expect(posted.version).toBe('1.5');
    expect(posted.actions.map((a: any) => a.verb ?? a.type)).toEqual([
      'approve',
      'reject',
      'Action.OpenUrl',
    ]);

    const first = await invoke({ approvalId, verb: 'approve' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      statusCode: 200,
      type: 'application/vnd.microsoft.card.adaptive',
    });
    const offer = first.body.value.actions.find((a: any) => a.title === 'Link your Teams account');
    expect(offer.url).toMatch(/\/console\/chat-link#/);

    // Bea opens the link in Chromium before signing in: the console keeps its code through the
    // identity provider's redirects, says which account asked, and links it when she says so.
    const browser = chat.browser!;
    const page = await browser.tab();
    await page.goto(offer.url);
    await page.getByRole('link', { name: 'Sign in with your company account' }).click();
    await page.locator('input[name="login"]').fill('bea');
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('heading', { name: 'Link this account to you?' }).waitFor();
    await page.getByText(`Teams account Bea Lead (${BEA_AAD})`).waitFor();
    expect(page.url()).not.toContain('#');
    await browser.shot(page, 'chat-link');
    await page.getByRole('button', { name: 'This account is mine: link it' }).click();
    await page.locator('.said', { hasText: 'Linked. Press the button in Teams again' }).waitFor();
    await page.locator('[data-link-id]', { hasText: BEA_AAD }).waitFor();
    await page.close();
    expect(browser.problems).toEqual([]);

    const decided = await invoke({ approvalId, verb: 'approve' });
    expect(JSON.stringify(decided.body.value)).toContain('Approved by bea in Teams');
    expect(await approval(approvalId)).toMatchObject({
      status: 'approved',
      decided_by: 'bea',
      decided_via: 'teams',
    });

    // The same activity again (its token still valid): a replay.
    const replay = await stack.api.request('POST', '/api/chat/teams/messages', {
      headers: {
        authorization: `Bearer ${await chat.issuer.token({ audience: chat.botAppId, serviceUrl: SERVICE_URL })}`,
      },
      json: decided.sent,
    });
    expect(JSON.stringify(replay.body.value)).toContain('this request was taken before');
  });

  it('refuses a token that does not verify, and audits it; decides nothing', async () => {
    const { approvalId } = await chat.held();
    const token = (o: Partial<Parameters<typeof chat.issuer.token>[0]>) =>
      chat.issuer.token({ audience: chat.botAppId, serviceUrl: SERVICE_URL, ...o });
    const cases: Array<[string, string | null]> = [
      ['signed by a key the issuer does not publish', await token({ key: 'stranger' })],
      ['for another bot', await token({ audience: randomUUID() })],
      ['from another issuer', await token({ issuer: 'https://login.example.com' })],
      // Five minutes of clock skew are allowed, as the Bot Framework allows.
      ['expired', await token({ expiresIn: Math.floor(Date.now() / 1000) - 400 })],
      ['for another service', await token({ serviceUrl: 'https://attacker.example.com/' })],
      ['without a token', null],
    ];
    for (const [what, bearer] of cases) {
      const answer = await invoke({ approvalId, verb: 'approve', token: bearer });
      expect([what, answer.status]).toEqual([what, 401]);
      expect(answer.body.message).toMatch(/no valid Bot Framework token/);
    }
    expect(await approval(approvalId)).toMatchObject({ status: 'pending' });
    const audited = await stack.api.request(
      'GET',
      '/api/audit?type=approval.chat_refused&limit=200',
      { token: stack.tokens.auditor },
    );
    const reasons = audited.body.items
      .filter((e: any) => e.details.approval_id === approvalId)
      .map((e: any) => e.details.message);
    expect(reasons).toHaveLength(cases.length);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/ERR_JWKS_NO_MATCHING_KEY|ERR_JWS_SIGNATURE_VERIFICATION_FAILED/),
        expect.stringMatching(/ERR_JWT_CLAIM_VALIDATION_FAILED/),
        expect.stringMatching(/ERR_JWT_EXPIRED/),
        expect.stringMatching(/serviceUrl is not the activity's/),
        expect.stringMatching(/no bearer token/),
      ]),
    );
  });
});
