import { DataSource } from 'typeorm';
import { typeStoredApprovers } from '../../migrations/1796440000000-ApproversTyped';
import { heldWrite, ONE_WRITE } from '../support/approving';
import { type ProviderStack, startProviderStack, type TestUser } from '../support/oidc-provider';
import { signInByHttp } from '../support/signing-in';
import { isEnded, type Stack } from '../support/stack';

/**
 * Approvers typed (docs/security.md, issue 24 finding 5): an entry is `group:NAME` or `subject:NAME`; a
 * group matches only a person's groups, a subject only the caller's subject, and a person counts
 * only when signed in through the identity provider the deployment trusts. People sign in through
 * a real OpenID provider (its own process); API, worker, PostgreSQL, Redis and the sim are real.
 * First, the migration's rewrite of configs and held writes stored the old way.
 */

jest.setTimeout(180_000);

const USERS: Record<string, TestUser> = {
  bea: {
    name: 'Bea Lead',
    email: 'bea@acme.example',
    tenant: 'acme',
    groups: ['approvers', 'sap-leads'],
  },
  // Her subject is the name of a group she is not in.
  'sap-leads': {
    name: 'Sam Leads',
    email: 'sam@acme.example',
    tenant: 'acme',
    groups: ['approvers'],
  },
  dave: { name: 'Dave', email: 'dave@acme.example', tenant: 'acme', groups: ['approvers'] },
};

describe('typed approvers', () => {
  let signIn: ProviderStack;
  let stack: Stack;
  let planner: string;
  /** A token whose subject is the name of a group. */
  let groupNamedToken: string;
  let carol: string;

  beforeAll(async () => {
    signIn = await startProviderStack(USERS, { approvers: ['agents.approve'] });
    ({ stack } = signIn);
    planner = await stack.planner(ONE_WRITE);
    groupNamedToken = (await stack.api.token('acme', 'sap-leads', ['agents.approve'])).token;
    carol = (await stack.api.token('acme', 'carol', ['agents.approve'])).token;
  });

  afterAll(async () => {
    await signIn?.close();
  });

  beforeEach(async () => {
    await stack.sim.reset();
  });

  const held = () => heldWrite(stack);

  /** A person signed in through the provider, deciding with their session (cookie and CSRF). */
  async function person(login: string) {
    const { jar } = await signInByHttp(stack.api.url, login);
    const cookie = `warden_session=${jar.get('warden_session')}`;
    const me = await stack.api.request('GET', '/api/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    const csrf = me.body.session.csrf_token as string;
    return {
      decide: (approvalId: string, how: 'approve' | 'reject') =>
        stack.api.request('POST', `/api/approvals/${approvalId}/${how}`, {
          headers: { cookie, origin: stack.api.url, 'x-warden-csrf': csrf },
          json: {},
        }),
      inbox: async () =>
        (await stack.api.request('GET', '/api/approvals', { headers: { cookie } })).body.items.map(
          (a: { id: string }) => a.id,
        ),
    };
  }
  const byToken = (approvalId: string, how: 'approve' | 'reject', token: string) =>
    stack.api.request('POST', `/api/approvals/${approvalId}/${how}`, { token, json: {} });
  const config = async () =>
    (await stack.api.request('GET', '/api/admin/computer-use', { token: stack.tokens.admin })).body;

  it('migrates what was stored the old way: each entry both ways, the admin told, nobody loses or gains', async () => {
    await stack.configure({ planner, approvers: ['subject:carol'] });
    const { runId, approvalId } = await held();
    // As an older Warden stored them: the config in force and the held write, untyped.
    await stack.api.db.sql(
      `UPDATE approvals SET deciders = ARRAY['sap-leads', 'carol'] WHERE id = $1`,
      [approvalId],
    );
    const head = await config();
    const old = structuredClone(head);
    old.agents['sap-orders'].approvers = ['sap-leads', 'carol'];
    old.agents['sap-orders'].escalate_after_seconds = 600;
    old.agents['sap-orders'].escalate_to = ['heads'];
    await stack.api.db.sql(
      `INSERT INTO computer_use_configs (tenant, version, config, created_by)
       VALUES ('acme', $1, $2, 'ada')`,
      [head.version + 1, { enabled: old.enabled, agents: old.agents }],
    );

    const dataSource = stack.api.app.get(DataSource);
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await typeStoredApprovers(runner);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }

    const migrated = await config();
    expect(migrated).toMatchObject({ version: head.version + 2, updated_by: 'system:migration' });
    expect(migrated.agents['sap-orders']).toMatchObject({
      approvers: ['group:sap-leads', 'subject:sap-leads', 'group:carol', 'subject:carol'],
      escalate_to: ['group:heads', 'subject:heads'],
    });
    expect(migrated.notices).toEqual([
      {
        code: 'approvers_typed',
        message: expect.stringMatching(/^approvers and escalate_to entries were untyped/),
        changes: [
          {
            path: 'agents.sap-orders.approvers',
            from: ['sap-leads', 'carol'],
            to: ['group:sap-leads', 'subject:sap-leads', 'group:carol', 'subject:carol'],
          },
          {
            path: 'agents.sap-orders.escalate_to',
            from: ['heads'],
            to: ['group:heads', 'subject:heads'],
          },
        ],
      },
    ]);
    // Audited in the tenant's chain, which still verifies.
    const events = await stack.api.request('GET', '/api/audit?type=computer_use.config&limit=200', {
      token: stack.tokens.auditor,
    });
    expect(events.body.items.at(-1)).toMatchObject({
      actor: 'system:migration',
      details: {
        version: head.version + 2,
        previous_version: head.version + 1,
        agents_changed: ['sap-orders'],
        notices: migrated.notices,
      },
    });
    const verify = await stack.api.request('GET', '/api/audit/verify', {
      token: stack.tokens.auditor,
    });
    expect(verify.body).toMatchObject({ ok: true });

    // The held write: a token subject as before, and a group as before.
    const view = await stack.api.request('GET', `/api/approvals/${approvalId}`, { token: carol });
    expect(view.body.may_decide_now).toEqual([
      'group:sap-leads',
      'subject:sap-leads',
      'group:carol',
      'subject:carol',
    ]);
    expect(await (await person('bea')).inbox()).toContain(approvalId);
    expect((await byToken(approvalId, 'reject', carol)).status).toBe(200);
    expect(await stack.waitFor(runId, isEnded)).toMatchObject({ end_reason: 'rejected' });

    // The admin may PUT back what GET answers, and narrow it, without governance.weaken; the
    // notice is the migrated version's, so the next version has none.
    const weakened = async () =>
      (
        await stack.api.request('GET', '/api/audit?type=governance.weaken&limit=200', {
          token: stack.tokens.auditor,
        })
      ).body.items.length;
    const before = await weakened();
    const back = await stack.api.request('PUT', '/api/admin/computer-use', {
      token: stack.tokens.admin,
      json: migrated,
    });
    expect(back.status).toBe(200);
    expect(back.body.notices).toEqual([]);
    const narrowed = structuredClone(back.body);
    narrowed.agents['sap-orders'].approvers = ['group:sap-leads', 'subject:carol'];
    const saved = await stack.api.request('PUT', '/api/admin/computer-use', {
      token: stack.tokens.admin,
      json: narrowed,
    });
    expect(saved.status).toBe(200);
    expect(await weakened()).toBe(before);
  });

  it('refuses an untyped entry, naming it and saying what to write', async () => {
    const at = (await config()).version;
    const refused = await stack.configureAs(stack.tokens.weakener, {
      approvers: ['group:sap-leads', 'carol'],
      reason: 'typed approvers',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      `agents.sap-orders.approvers.1 "carol" does not say what it names: write "group:carol" for a group of the identity provider, or "subject:carol" for an API token's subject or a person's subject (sub)`,
    );
    expect((await config()).version).toBe(at);
  });

  it('lets a group decide only as its members, never as a subject of its name', async () => {
    await stack.configure({ planner, approvers: ['group:sap-leads'], reason: 'typed approvers' });
    const { runId, approvalId } = await held();
    // A person whose subject is the group's name, and a token whose subject is: neither is in it.
    const sam = await person('sap-leads');
    const refused = await sam.decide(approvalId, 'approve');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'only group:sap-leads may decide writes of agent sap-orders, and sap-leads is not one of them',
    );
    expect(await sam.inbox()).not.toContain(approvalId);
    expect((await byToken(approvalId, 'approve', groupNamedToken)).status).toBe(403);
    // Bea is in the group.
    const bea = await person('bea');
    expect(await bea.inbox()).toContain(approvalId);
    expect((await bea.decide(approvalId, 'reject')).status).toBe(200);
    expect(await stack.waitFor(runId, isEnded)).toMatchObject({ end_reason: 'rejected' });
  });

  it('lets a subject decide as the token or the person of the trusted issuer, not of another', async () => {
    await stack.configure({
      planner,
      approvers: ['subject:dave', 'subject:carol'],
      reason: 'typed approvers',
    });
    const first = await held();
    expect((await byToken(first.approvalId, 'reject', carol)).status).toBe(200);
    await stack.waitFor(first.runId, isEnded);

    const { runId, approvalId } = await held();
    const dave = await person('dave');
    // The same subject from an issuer the deployment does not trust, and from before Warden
    // recorded the issuer: neither counts, and the person is told to sign in again.
    for (const issuer of ['https://login.globex.example', '']) {
      await stack.api.db.sql(`UPDATE sessions SET issuer = $1 WHERE subject = 'dave'`, [issuer]);
      const refused = await dave.decide(approvalId, 'approve');
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(
        'only subject:dave, subject:carol may decide writes of agent sap-orders, and dave is not one of them (your sign-in is not from the identity provider this deployment trusts now: sign in again)',
      );
      expect(await dave.inbox()).not.toContain(approvalId);
    }
    // Signed in again through the trusted provider, the session records it.
    const again = await person('dave');
    const [session] = await stack.api.db.sql<{ issuer: string }>(
      `SELECT issuer FROM sessions WHERE subject = 'dave' ORDER BY created_at DESC LIMIT 1`,
    );
    expect(session.issuer).toBe(signIn.provider.issuer);
    expect((await again.decide(approvalId, 'reject')).status).toBe(200);
    expect(await stack.waitFor(runId, isEnded)).toMatchObject({ end_reason: 'rejected' });
  });
});
