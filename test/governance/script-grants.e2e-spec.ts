/**
 * A script granted to an agent whose writes need no approval (docs/security.md "Weakening"), over
 * the real API, worker, PostgreSQL, Redis and the sim screen host. The weakening is bound to the
 * script's content (its SHA-256, recorded with the config version): replacing or deleting the
 * script is that agent's `planner` weakening (403 without governance.weaken, 400 without a reason,
 * audited with the old and new hashes), and the send gate holds an unapproved write whose step was
 * planned by any other content, whether the script changed by a direct change of the database or
 * by an update that raced the step.
 */
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { grantScriptsInForce } from '../../migrations/1796515000000-ScriptGrants';
import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { isEnded, startStack, type Stack } from '../support/stack';

/** The canonical JSON of a script with its keys in order, as check-script normalises it. */
const sha = (script: unknown): string => {
  const canonical = (v: unknown): string =>
    v === null || typeof v !== 'object'
      ? JSON.stringify(v)
      : Array.isArray(v)
        ? `[${v.map(canonical).join(',')}]`
        : `{${Object.keys(v)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
            .join(',')}}`;
  return createHash('sha256').update(canonical(script)).digest('hex');
};

/** Looks at the screen and ends: what the weakener granted. */
const HARMLESS = {
  steps: [
    { action: { action: 'key', key: 'Tab' } },
    { action: { action: 'done', summary: 'looked at the menu' } },
  ],
};
const REASON = 'nightly report: the script only reads';
const NOT_GRANTED = 'not the content granted';

describe('a script granted to an agent whose writes need no approval', () => {
  let stack: Stack;
  let harmless: string;

  const planner = (id: string) => `/api/planners/${id}`;
  const put = (id: string, json: Record<string, unknown>, token: string) =>
    stack.api.request('PUT', planner(id), { token, json });
  const weakens = async () =>
    (
      await stack.api.request('GET', '/api/audit?type=governance.weaken&limit=200', {
        token: stack.tokens.auditor,
      })
    ).body.items as Array<{ actor: string; details: Record<string, any> }>;
  const version = async (): Promise<number> =>
    (await stack.api.request('GET', '/api/admin/computer-use', { token: stack.tokens.admin })).body
      .version;
  const storedScript = async (id: string) =>
    (await stack.api.request('GET', planner(id), { token: stack.tokens.admin })).body.planner
      .script;
  /** Keys and clicks the sim performed (the host's own log). */
  const performed = async () =>
    (await stack.sim.events()).filter((e) => e.type === 'action').map((e) => e.action);
  /** The run, once its first step is being planned (its screen taken, its planner made). */
  const planning = (id: string) =>
    stack.waitFor(id, (r) => r.steps.length >= 1 && r.steps[0].screen_sha256 !== null);

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.close();
  });

  beforeEach(async () => {
    await stack.sim.reset();
  });

  it('replacing it is that agent’s weakening: 403 for a plain admin, 400 without a reason, then granted and audited', async () => {
    harmless = await stack.planner(HARMLESS);
    await stack.configure({ planner: harmless, require_write_approval: false, reason: REASON });
    const before = await version();
    const audited = (await weakens()).length;

    // A plain admin may not rewrite what an agent sends without a person.
    const plain = await put(harmless, { script: VA02_EXAMPLE_SCRIPT }, stack.tokens.admin);
    expect(plain.status).toBe(403);
    expect(plain.body.message).toBe(
      'a new planner, or new content of its script, for an agent whose writes need no approval (agent sap-orders) needs the permission governance.weaken as well as computer_use.admin',
    );
    expect(await storedScript(harmless)).toEqual(HARMLESS);

    const unexplained = await put(harmless, { script: VA02_EXAMPLE_SCRIPT }, stack.tokens.weakener);
    expect(unexplained.status).toBe(400);
    expect(unexplained.body.message).toBe(
      'reason is required when an agent whose writes need no approval gets a new planner or new content of its script (agent sap-orders): say why the writes this planner chooses may act without approval',
    );
    expect(await storedScript(harmless)).toEqual(HARMLESS);
    expect(await version()).toBe(before);
    expect(await weakens()).toHaveLength(audited);

    const granted = await put(
      harmless,
      { script: VA02_EXAMPLE_SCRIPT, reason: 'nightly date change, agreed with sales' },
      stack.tokens.weakener,
    );
    expect(granted.status).toBe(200);
    expect(await version()).toBe(before + 1);
    const [event] = (await weakens()).slice(audited);
    expect(event).toMatchObject({
      actor: 'wes',
      details: {
        agent: 'sap-orders',
        control: 'planner',
        from: harmless,
        to: harmless,
        script_sha256: { from: sha(HARMLESS), to: sha(VA02_EXAMPLE_SCRIPT) },
        planner_id: harmless,
        reason: 'nightly date change, agreed with sales',
        version: before + 1,
      },
    });

    // What was granted is what runs: the content the engine reads matches the grant, so the
    // writes go without a person, as the weakener decided.
    const run = await stack.start('change order 4711');
    const ended = await stack.waitFor(run.id, isEnded, 60_000);
    expect(ended).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(
      ended.steps.filter((s: any) => s.outcome === 'sent' && s.classification === 'write'),
    ).not.toHaveLength(0);
    expect(ended.steps.some((s: any) => s.outcome === 'held')).toBe(false);
  });

  it('an upgrade grants the version in force the content its scripts hold, and its runs send as before', async () => {
    const typing = {
      steps: [
        { action: { action: 'click', element: { role: 'textbox', name: 'Command field' } } },
        { action: { action: 'type', text: '/nVA03' } },
        { action: { action: 'done', summary: 'typed' } },
      ],
    };
    const script = await stack.planner(typing);
    await stack.configure({ planner: script, require_write_approval: false, reason: REASON });
    // A version written before grants were recorded.
    await stack.api.db.sql(
      `UPDATE computer_use_configs SET script_grants = '{}'
        WHERE tenant = 'acme' AND version = (SELECT max(version) FROM computer_use_configs WHERE tenant = 'acme')`,
    );
    const runner = stack.api.app.get(DataSource).createQueryRunner();
    await runner.connect();
    try {
      await grantScriptsInForce(runner);
    } finally {
      await runner.release();
    }
    const [head] = await stack.api.db.sql<{ script_grants: Record<string, string> }>(
      `SELECT script_grants FROM computer_use_configs WHERE tenant = 'acme'
        ORDER BY version DESC LIMIT 1`,
    );
    expect(head.script_grants).toEqual({ 'sap-orders': sha(typing) });
    const run = await stack.start('type a transaction code');
    const ended = await stack.waitFor(
      run.id,
      (r) => r.status === 'awaiting_approval' || isEnded(r),
    );
    expect(ended).toMatchObject({ status: 'completed', end_reason: 'done' });
    expect(ended.steps[1]).toMatchObject({ classification: 'write', outcome: 'sent' });
  });

  it('a plain admin may still replace a script that only agents whose writes are held name', async () => {
    const held = await stack.planner(HARMLESS);
    await stack.configure(
      {},
      {
        'held-orders': {
          screen_url: stack.sim.url,
          screen_token_env: stack.sim.tokenEnv,
          screen_tls: { fingerprint_sha256: stack.sim.fingerprint },
          planner: held,
        },
      },
    );
    const audited = (await weakens()).length;
    const r = await put(held, { script: VA02_EXAMPLE_SCRIPT }, stack.tokens.admin);
    expect(r.status).toBe(200);
    expect(await weakens()).toHaveLength(audited);
  });

  it('deleting it is that agent’s weakening too, and the grant goes with it', async () => {
    const doomed = await stack.planner(HARMLESS);
    await stack.configure({ planner: doomed, require_write_approval: false, reason: REASON });
    const audited = (await weakens()).length;
    const del = (token: string, reason?: string) =>
      stack.api.request(
        'DELETE',
        `${planner(doomed)}${reason ? `?reason=${encodeURIComponent(reason)}` : ''}`,
        { token },
      );
    expect((await del(stack.tokens.admin)).status).toBe(403);
    expect((await del(stack.tokens.weakener)).status).toBe(400);
    expect((await storedScript(doomed)).steps).toHaveLength(2);
    expect((await del(stack.tokens.weakener, 'retired')).status).toBe(204);
    expect((await weakens()).slice(audited)).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({
          agent: 'sap-orders',
          control: 'planner',
          script_sha256: { from: sha(HARMLESS), to: null },
          reason: 'retired',
        }),
      }),
    ]);
  });

  it('a run in flight that picks up a script changed in the database holds the write for a person', async () => {
    const waits = {
      when: { text: 'proceed-db' },
      patience: 60,
      action: { action: 'key', key: 'Tab' },
    };
    const script = await stack.planner({
      steps: [waits, { action: { action: 'done', summary: 'read only' } }],
    });
    await stack.configure({ planner: script, require_write_approval: false, reason: REASON });
    const run = await stack.start('look at the menu');
    await planning(run.id);
    // Someone with the database's keys, not the API's rules, gives the script a write.
    const replaced = {
      steps: [
        waits,
        { action: { action: 'key', key: 'Enter' } },
        { action: { action: 'done', summary: 'wrote' } },
      ],
    };
    await stack.api.db.sql(`UPDATE scripted_planners SET script = $1 WHERE id = $2`, [
      JSON.stringify(replaced),
      script.slice('scripted-'.length),
    ]);
    await stack.sim.poke('proceed-db');

    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r));
    expect(held.status).toBe('awaiting_approval');
    expect(held.steps.map((s: any) => [s.action?.key, s.classification, s.outcome])).toEqual([
      ['Tab', 'read', 'sent'],
      ['Enter', 'write', 'held'],
    ]);
    expect(held.pending_approval.why).toContain(NOT_GRANTED);
    expect((await performed()).filter((a) => a.key === 'Enter')).toEqual([]);
    await stack.api.request('POST', `/api/computer-use/runs/${run.id}/cancel`, {
      token: stack.tokens.operator,
    });
  });

  it('a step planned by the old content while a weakener replaced the script is held, not sent', async () => {
    const script = await stack.planner({
      steps: [
        { when: { text: 'proceed-race' }, patience: 60, action: { action: 'key', key: 'Enter' } },
        { action: { action: 'done', summary: 'entered' } },
      ],
    });
    await stack.configure({ planner: script, require_write_approval: false, reason: REASON });
    const run = await stack.start('press Enter');
    // The planner holds the script's content as it was; the grant moves on under it.
    await planning(run.id);
    const replaced = await put(
      script,
      {
        script: { steps: [{ action: { action: 'done', summary: 'nothing to do' } }] },
        reason: 'retire the Enter',
      },
      stack.tokens.weakener,
    );
    expect(replaced.status).toBe(200);
    await stack.sim.poke('proceed-race');

    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r));
    expect(held.status).toBe('awaiting_approval');
    expect(held.steps[0]).toMatchObject({ classification: 'write', outcome: 'held' });
    expect(held.pending_approval.why).toContain(NOT_GRANTED);
    expect((await performed()).filter((a) => a.key === 'Enter')).toEqual([]);
    await stack.api.request('POST', `/api/computer-use/runs/${run.id}/cancel`, {
      token: stack.tokens.operator,
    });
  });

  it('the config shows each agent’s granted script: its hash, and the version, person and time that granted it', async () => {
    const config = async () =>
      (await stack.api.request('GET', '/api/admin/computer-use', { token: stack.tokens.admin }))
        .body;
    const looks = { steps: [{ action: { action: 'done', summary: 'looked' } }] };
    const script = await stack.planner(looks);
    await stack.configure({ planner: script, require_write_approval: false, reason: REASON });
    const granted = await config();
    expect(granted.script_grants).toEqual({
      'sap-orders': {
        sha256: sha(looks),
        version: granted.version,
        granted_by: 'wes',
        granted_at: granted.updated_at,
      },
    });

    // A plain admin puts back what GET answered: the grant stays the weakener's, of that version.
    const back = await stack.api.request('PUT', '/api/admin/computer-use', {
      token: stack.tokens.admin,
      json: granted,
    });
    expect(back.status).toBe(200);
    expect(back.body.version).toBe(granted.version + 1);
    expect(back.body.updated_by).toBe('ada');
    expect(back.body.script_grants).toEqual(granted.script_grants);

    // New content, granted by the weakener: a new grant, of the version the change made.
    const reads = { steps: [{ action: { action: 'done', summary: 'read it' } }] };
    expect(
      (await put(script, { script: reads, reason: 'says what it read' }, stack.tokens.weakener))
        .status,
    ).toBe(200);
    const regranted = await config();
    expect(regranted.version).toBe(granted.version + 2);
    expect(regranted.script_grants).toEqual({
      'sap-orders': {
        sha256: sha(reads),
        version: regranted.version,
        granted_by: 'wes',
        granted_at: regranted.updated_at,
      },
    });

    // Writes held for a person again: nothing is granted.
    await stack.configure({ planner: script });
    expect((await config()).script_grants).toEqual({});
  });
});
