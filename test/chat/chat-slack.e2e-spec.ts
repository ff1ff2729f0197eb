import { SLACK_ACTIONS_PATH } from '../../src/http/raw-form-routes';
import { slackHeaders, slackPressBody } from '../support/chat';
import { type ChatStack, SAVE, startChatStack } from '../support/chat-stack';
import { isEnded, type Stack } from '../support/stack';
import { until } from '../support/until';

/**
 * Deciding in Slack (docs/notifications.md), through the real API, worker, PostgreSQL and Redis:
 * the held write's message carries Approve and Reject; a press is Slack-signed over its raw body,
 * fresh, taken once, made by a Slack account a person of the tenant linked while signed in, and
 * decided by every rule of the console; refusals are audited; the message is updated in place.
 * Requests are built from a recorded block_actions payload (support/fixtures/).
 */

jest.setTimeout(240_000);

/** Slack accounts linked before the tests, by the person they stand for. */
const LINKED = { dave: 'U0DAVE', olga: 'U0OLGA', dora: 'U0DORA' };

describe('deciding in Slack', () => {
  let chat: ChatStack;
  let stack: Stack;
  let planner: string;

  beforeAll(async () => {
    chat = await startChatStack();
    ({ stack } = chat);
    planner = await stack.planner(SAVE);
    await chat.configure(planner);
    // Dave, Olga and Dora link their Slack accounts the way Bea does in the first test; Dora
    // while her group may approve, which the admin takes back afterwards.
    await mapAuditors(['audit.read', 'agents.approve']);
    const { approvalId } = await chat.held();
    for (const [login, user] of Object.entries(LINKED)) {
      const first = await press({ approvalId, verb: 'reject', user });
      expect(first.body.refused).toBe('unmapped');
      await (await chat.person(login)).link(first.body.text);
    }
    await chat.cancelRuns();
    await mapAuditors(['audit.read']);
  });

  async function mapAuditors(permissions: string[]) {
    const mapped = await stack.api.request('PUT', '/api/admin/access', {
      token: stack.tokens.admin,
      json: {
        groups: {
          approvers: ['agents.approve'],
          operators: ['agents.operate'],
          auditors: permissions,
        },
      },
    });
    expect(mapped.status).toBe(200);
  }

  afterAll(async () => {
    await chat?.close();
  });

  beforeEach(async () => {
    await stack.sim.reset();
  });

  afterEach(async () => {
    await chat.cancelRuns();
  });

  /** Presses a button of the message as Slack would send it, signed with `secret`. */
  async function press(o: {
    approvalId: string;
    verb: 'approve' | 'reject';
    user: string;
    responseUrl?: string;
    secret?: string;
    timestamp?: number;
    body?: Buffer;
    headers?: Record<string, string>;
  }) {
    const message = await chat.slackMessage(o.approvalId);
    const button = message.buttons[`warden.${o.verb}`] ?? message.buttons['warden.reject'];
    const body =
      o.body ??
      slackPressBody({
        verb: o.verb,
        value: button.value,
        user: o.user,
        responseUrl: o.responseUrl ?? chat.responseUrl(`${o.approvalId}-${o.user}`),
        blocks: message.blocks,
      });
    const headers = o.headers ?? slackHeaders(o.secret ?? chat.signingSecret, body, o.timestamp);
    const answer = await stack.api.request('POST', SLACK_ACTIONS_PATH, { headers, body });
    return { ...answer, body: answer.body, sent: { body, headers } };
  }

  const approval = async (id: string) =>
    (await stack.api.request('GET', `/api/approvals/${id}`, { token: stack.tokens.approver })).body;

  const refusals = async (approvalId: string) =>
    (
      await stack.api.request('GET', '/api/audit?type=approval.chat_refused&limit=200', {
        token: stack.tokens.auditor,
      })
    ).body.items.filter((e: any) => e.details.approval_id === approvalId);

  /** What Warden posted to the response_url named `name`, once it arrived. */
  const posted = async (url: string): Promise<any[]> =>
    await until(`a post to ${url}`, async () => {
      const path = new URL(url).pathname;
      const got = chat.receiver.on(path);
      return got.length > 0 ? got.map((r) => JSON.parse(r.body)) : null;
    });

  it('carries Approve and Reject; an unlinked account gets a link; linked, Approve decides as the person, in Slack, and updates the message', async () => {
    const { approvalId } = await chat.held();
    const message = await chat.slackMessage(approvalId);
    expect(Object.keys(message.buttons)).toEqual([
      'warden.approve',
      'warden.reject',
      'warden.open.0',
    ]);
    const held = await approval(approvalId);
    expect(JSON.parse(message.buttons['warden.approve'].value)).toEqual({
      approval_id: approvalId,
      screen_sha256: held.screen_sha256,
    });

    // Nobody linked U0BEA yet: nothing decided, a code to link it, told to the presser alone.
    const first = await press({ approvalId, verb: 'approve', user: 'U0BEA' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      outcome: 'refused',
      refused: 'unmapped',
      message_update: 'sent',
    });
    expect(first.body.text).toMatch(/open http:\/\/127\.0\.0\.1:\d+\/console\/chat-link#/);
    const note = await posted(chat.responseUrl(`${approvalId}-U0BEA`));
    expect(note[0]).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect((await approval(approvalId)).status).toBe('pending');

    // Bea opens the link while signed in: the console shows whose account, and she links it.
    const bea = await chat.person('bea');
    const code = /chat-link#([A-Za-z0-9_-]+)/.exec(first.body.text)![1];
    const preview = await stack.api.request('POST', '/api/chat/links/preview', {
      headers: bea.headers,
      json: { code },
    });
    expect(preview.body).toMatchObject({ kind: 'slack', chat_team: 'T0ACME', chat_user: 'U0BEA' });
    const link = await bea.link(first.body.text);
    expect(link).toMatchObject({ kind: 'slack', chat_user: 'U0BEA', subject: 'bea' });
    // A code links once.
    const again = await stack.api.request('POST', '/api/chat/links', {
      headers: bea.headers,
      json: { code },
    });
    expect(again.status).toBe(404);

    const decided = await press({
      approvalId,
      verb: 'approve',
      user: 'U0BEA',
      responseUrl: chat.responseUrl('bea-2'),
    });
    expect(decided.body).toMatchObject({
      outcome: 'approved',
      refused: null,
      message_update: 'sent',
    });
    expect(await approval(approvalId)).toMatchObject({
      status: 'approved',
      decided_by: 'bea',
      decided_via: 'slack',
    });
    const events = await stack.api.request('GET', `/api/audit?type=approval.decided&limit=200`, {
      token: stack.tokens.auditor,
    });
    expect(events.body.items.find((e: any) => e.details.approval_id === approvalId)).toMatchObject({
      actor: 'bea',
      details: { decision: 'approved', via: 'slack', screen_sha256: held.screen_sha256 },
    });
    // The message, updated in place: the decision in it, its Approve and Reject gone.
    const [update] = await posted(chat.responseUrl('bea-2'));
    expect(update.replace_original).toBe(true);
    expect(update.text).toMatch(/^Approved by bea in Slack\./);
    const text = JSON.stringify(update.blocks);
    expect(text).not.toContain('warden.approve');
    expect(text).not.toContain('warden.reject');
    expect(text).toContain('Approval needed: sap-orders');

    // The same request again: a replay, refused and audited.
    const replay = await stack.api.request('POST', SLACK_ACTIONS_PATH, decided.sent);
    expect(replay.body).toMatchObject({ outcome: 'refused', refused: 'replayed' });
    expect((await refusals(approvalId)).map((e: any) => e.details.refused)).toEqual([
      'unmapped',
      'replayed',
    ]);

    // The operator resumes: the write is sent once, as after a console approval.
    const resumed = await stack.api.request(
      'POST',
      `/api/computer-use/runs/${(await approval(approvalId)).run_id}/resume`,
      {
        token: stack.tokens.operator,
      },
    );
    expect(resumed.status).toBe(200);
  });

  it('refuses forged, unsigned and stale requests and a tampered body, auditing each; decides nothing', async () => {
    const { approvalId } = await chat.held();
    const forged = await press({
      approvalId,
      verb: 'approve',
      user: 'U0BEA',
      secret: 'not-the-signing-secret',
    });
    expect(forged.status).toBe(401);
    expect(forged.body.message).toMatch(/no valid Slack signature/);

    const unsigned = await press({
      approvalId,
      verb: 'approve',
      user: 'U0BEA',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(unsigned.status).toBe(401);

    const stale = await press({
      approvalId,
      verb: 'approve',
      user: 'U0BEA',
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect(stale.status).toBe(401);

    // Signed, then changed on the way (Reject made Approve): the signature is over the raw bytes.
    const message = await chat.slackMessage(approvalId);
    const signedBody = slackPressBody({
      verb: 'reject',
      value: message.buttons['warden.reject'].value,
      user: 'U0BEA',
      responseUrl: chat.responseUrl('tampered'),
    });
    const changed = await stack.api.request('POST', SLACK_ACTIONS_PATH, {
      headers: slackHeaders(chat.signingSecret, signedBody),
      body: Buffer.from(signedBody.toString().replace('warden.reject', 'warden.approve')),
    });
    expect(changed.status).toBe(401);

    expect(await approval(approvalId)).toMatchObject({ status: 'pending' });
    const why = (await refusals(approvalId)).map((e: any) => [
      e.details.refused,
      e.details.message,
    ]);
    expect(why).toEqual(
      expect.arrayContaining([
        [
          'unverified',
          expect.stringMatching(/signature is not one of the agent’s Slack signing secrets/),
        ],
        ['unverified', expect.stringMatching(/no Slack signature/)],
        ['unverified', expect.stringMatching(/more than five minutes/)],
      ]),
    );
    expect(why.filter(([r]: string[]) => r === 'unverified')).toHaveLength(4);

    // An approval that does not exist: the same 401, nothing to audit it in.
    const nobody = slackPressBody({
      verb: 'approve',
      value: JSON.stringify({
        approval_id: '00000000-0000-4000-8000-000000000000',
        screen_sha256: 'a'.repeat(64),
      }),
      user: 'U0BEA',
      responseUrl: chat.responseUrl('nobody'),
    });
    const none = await stack.api.request('POST', SLACK_ACTIONS_PATH, {
      headers: slackHeaders(chat.signingSecret, nobody),
      body: nobody,
    });
    expect(none.status).toBe(401);
  });

  it('applies four-eyes: the person who started the run cannot approve it from Slack', async () => {
    const olga = await chat.person('olga');
    const started = await stack.api.request('POST', '/api/computer-use/runs', {
      headers: olga.headers,
      json: { agent: 'sap-orders', goal: 'change order 4711' },
    });
    expect(started.status).toBe(201);
    const held = await stack.waitFor(started.body.id, (r) => r.status === 'awaiting_approval');
    const approvalId = held.pending_approval.id;
    const mine = await press({ approvalId, verb: 'approve', user: LINKED.olga });
    expect(mine.body).toMatchObject({ outcome: 'refused', refused: 'refused' });
    expect(mine.body.text).toMatch(/four-eyes: olga started this run/);
    expect(await approval(approvalId)).toMatchObject({ status: 'pending' });
    const [event] = await refusals(approvalId);
    expect(event).toMatchObject({
      actor: 'olga',
      details: { via: 'slack', refused: 'refused', decision: 'approve', chat_user: LINKED.olga },
    });
    // Someone else may.
    const dave = await press({ approvalId, verb: 'approve', user: LINKED.dave });
    expect(dave.body.outcome).toBe('approved');
  });

  it('lets exactly one of a Slack decision and a console decision win a race', async () => {
    const bea = await chat.person('bea');
    for (let round = 0; round < 3; round++) {
      const { approvalId } = await chat.held();
      await chat.slackMessage(approvalId);
      const [inSlack, inConsole] = await Promise.all([
        press({ approvalId, verb: 'approve', user: LINKED.dave }),
        stack.api.request('POST', `/api/approvals/${approvalId}/reject`, {
          headers: bea.headers,
          json: {},
        }),
      ]);
      const slackWon = inSlack.body.outcome === 'approved';
      const consoleWon = inConsole.status === 200;
      expect([slackWon, consoleWon].filter(Boolean)).toHaveLength(1);
      if (slackWon) {
        expect(inConsole.status).toBe(409);
        expect(inConsole.body.message).toMatch(/is already approved/);
      } else {
        expect(inSlack.body).toMatchObject({ outcome: 'refused', refused: 'late' });
        expect(inSlack.body.text).toMatch(/is already rejected/);
      }
      expect(await approval(approvalId)).toMatchObject(
        slackWon
          ? { status: 'approved', decided_by: 'dave', decided_via: 'slack' }
          : { status: 'rejected', decided_by: 'bea', decided_via: 'console' },
      );
      const decided = await stack.api.request('GET', '/api/audit?type=approval.decided&limit=200', {
        token: stack.tokens.auditor,
      });
      expect(
        decided.body.items.filter((e: any) => e.details.approval_id === approvalId),
      ).toHaveLength(1);
      await chat.cancelRuns();
      await stack.sim.reset();
    }
  });

  it('refuses a late press, a person without agents.approve, and one whose sign-in is too old', async () => {
    const { approvalId } = await chat.held();
    // Dora is linked, but her groups map to audit.read only now.
    const dora = await press({ approvalId, verb: 'reject', user: LINKED.dora });
    expect(dora.body).toMatchObject({ outcome: 'refused', refused: 'not_permitted' });
    expect(dora.body.text).toMatch(/dora may not decide writes in tenant acme/);

    // Dave's latest sign-in is older than a console session may live: sign in again first.
    await stack.api.db.sql(
      `UPDATE sessions SET created_at = now() - interval '13 hours' WHERE subject = 'dave'`,
    );
    const stale = await press({ approvalId, verb: 'approve', user: LINKED.dave });
    expect(stale.body).toMatchObject({ outcome: 'refused', refused: 'no_sign_in' });
    expect(stale.body.text).toMatch(
      /dave has not signed in to the Warden console in the last 12 hours/,
    );
    await chat.person('dave');

    // Expired: too late, whoever presses.
    await stack.api.db.sql(
      `UPDATE approvals SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [approvalId],
    );
    const late = await press({ approvalId, verb: 'approve', user: LINKED.dave });
    expect(late.body).toMatchObject({ outcome: 'refused', refused: 'late' });
    expect(late.body.text).toMatch(/expired at/);
    expect((await approval(approvalId)).status).toBe('pending');
    expect((await refusals(approvalId)).map((e: any) => e.details.refused)).toEqual([
      'not_permitted',
      'no_sign_in',
      'late',
    ]);
  });

  it('offers Approve only where the message shows what will be sent, and refuses it otherwise', async () => {
    await chat.configure(
      await stack.planner({
        steps: [
          { action: { action: 'click', element: { role: 'textbox', name: 'Command field' } } },
          { action: { action: 'type', text: '/nVA03' } },
          { action: { action: 'done', summary: 'typed' } },
        ],
      }),
    );
    try {
      const { approvalId } = await chat.held();
      const message = await chat.slackMessage(approvalId);
      // The agent keeps typed text out of messages: Reject only, and a word why.
      expect(Object.keys(message.buttons)).toEqual(['warden.reject', 'warden.open.0']);
      expect(JSON.stringify(message.blocks)).not.toContain('/nVA03');
      // An Approve press all the same (its button is gone, its value is Reject's): refused.
      const approve = await press({ approvalId, verb: 'approve', user: LINKED.dave });
      expect(approve.body).toMatchObject({ outcome: 'refused', refused: 'refused' });
      expect(approve.body.text).toMatch(/its message leaves out the typed text/);
      // Reject sends nothing: it is offered, and decides. Slack's origin is not granted here, so
      // the message stays as it was, and the answer says so.
      const reject = await press({
        approvalId,
        verb: 'reject',
        user: LINKED.dave,
        responseUrl: 'https://hooks.slack.com/actions/T0ACME/1/x',
      });
      expect(reject.body).toMatchObject({ outcome: 'rejected', message_update: 'not_granted' });
      expect(reject.body.text).toMatch(
        /The Slack message is not updated: .*https:\/\/hooks\.slack\.com/,
      );
      const run = await stack.waitFor((await approval(approvalId)).run_id, isEnded);
      expect(run).toMatchObject({ status: 'stopped', end_reason: 'rejected' });
    } finally {
      await chat.configure(planner);
    }
  });
});
