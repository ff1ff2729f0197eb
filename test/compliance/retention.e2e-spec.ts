import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RetentionService } from '../../src/computer-use/retention/retention.service';
import { pixelSha256 } from '../../src/computer-use/pixels/pixels';
import { decodePng } from '../../src/computer-use/pixels/png-decoder';
import { ScreenKeys } from '../../src/computer-use/screens/screen-keys';
import { ScreensRepository } from '../../src/computer-use/screens/screens.repository';
import { ScreensService } from '../../src/computer-use/screens/screens.service';
import { createWorker } from '../../src/worker.module';
import { ENTRIES, runEntry } from '../../scripts/lib/processes';
import { startApi, TestApi, testConfig } from '../support/api';
import { TEST_REDIS_URL } from '../support/env';
import { until } from '../support/until';
import { render } from '../support/rendered-screen';

/**
 * Screen retention (issue 17 §2) against the real API and PostgreSQL: screens not used for longer
 * than the tenant's retention lose their PNG bytes (410 Gone), those of a run under legal hold and
 * recent ones stay, and the audit chain still verifies; shortening retention and lifting a hold are
 * weakenings (governance.weaken and a reason). Where screens of different ages are needed, rows are
 * back-dated in SQL; elsewhere the purge runs as of a later moment, as the operator's
 * `screens purge --as-of` does.
 */
describe('screen retention and legal hold', () => {
  let api: TestApi;
  let admin: string;
  /** An admin who may weaken: shorten retention, lift a hold (docs/security.md). */
  let weakener: { id: string; token: string };
  let auditor: string;
  let screens: ScreensService;
  let retention: RetentionService;

  beforeAll(async () => {
    api = await startApi();
    ({ token: admin } = await api.token('acme', 'ada', ['computer_use.admin']));
    ({ token: auditor } = await api.token('acme', 'aud', ['audit.read']));
    weakener = await api.token('acme', 'wes', ['computer_use.admin', 'governance.weaken']);
    screens = api.app.get(ScreensService);
    retention = api.app.get(RetentionService);
  });

  afterAll(async () => {
    await api?.close();
  });

  /** A run of `tenant` whose step n saw the n-th screen given, each a distinct PNG. */
  async function runWith(pngs: Buffer[], tenant = 'acme'): Promise<string> {
    const id = randomUUID();
    await api.db.sql(
      `INSERT INTO runs (id, tenant, agent, goal, status, created_by, created_by_token,
                         config_version, agent_config, lease_key, max_steps, max_seconds)
       VALUES ($1, $2, 'sap-orders', 'retention', 'completed', 'pat', $3, 1, '{}', 'x', 20, 300)`,
      [id, tenant, randomUUID()],
    );
    for (const [i, png] of pngs.entries()) {
      const stored = await screens.store(tenant, { png });
      await api.db.sql(
        `INSERT INTO steps (run_id, tenant, n, phase, screen_sha256, started_at)
         VALUES ($1, $2, $3, 'done', $4, now())`,
        [id, tenant, i + 1, stored.sha256],
      );
    }
    return id;
  }
  /** `npm run cli -- screens purge …`, run as the operator runs it. */
  const purgeCli = (...args: string[]) =>
    runEntry(ENTRIES.cli, ['screens', 'purge', ...args], {
      DATABASE_URL: api.db.url,
      REDIS_URL: TEST_REDIS_URL,
    });
  const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

  let size = 40;
  const png = () => render(size++, 30, []).png;
  /** Every screen (or those of one run) last used `days` ago. */
  const backdate = (days: number, run?: string) =>
    api.db.sql(
      `UPDATE screens SET last_used_at = now() - make_interval(days => $1)
        WHERE $2::uuid IS NULL
           OR sha256 IN (SELECT screen_sha256 FROM steps WHERE run_id = $2::uuid)`,
      [days, run ?? null],
    );
  const screenOf = (run: string, n: number, token = auditor) =>
    api.request('GET', `/api/computer-use/runs/${run}/steps/${n}/screen`, { token });

  it('is 180 days by default; less than 180 or more than 3650 is refused; a change is audited', async () => {
    const initial = await api.request('GET', '/api/admin/retention', { token: admin });
    expect(initial.body).toEqual({
      retention_days: 180,
      default: true,
      updated_by: null,
      updated_at: null,
    });
    const short = await api.request('PUT', '/api/admin/retention', {
      token: admin,
      json: { retention_days: 90 },
    });
    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/^retention_days must be at least 180: .*EU AI Act/);
    const long = await api.request('PUT', '/api/admin/retention', {
      token: admin,
      json: { retention_days: 3651 },
    });
    expect(long.status).toBe(400);
    const set = await api.request('PUT', '/api/admin/retention', {
      token: admin,
      json: { retention_days: 200 },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ retention_days: 200, default: false, updated_by: 'ada' });
    const [event] = await api.db.sql<{ details: Record<string, unknown> }>(
      `SELECT details FROM audit_events WHERE type = 'screens.retention_changed'`,
    );
    expect(event.details).toMatchObject({ retention_days: 200, previous: 180 });
  });

  it("drops old screens' bytes in batches but keeps held runs' and recent ones; verify passes", async () => {
    const old = await runWith([png(), png(), png()]);
    const held = await runWith([png()]);
    const noReason = await api.request('PUT', `/api/computer-use/runs/${held}/legal-hold`, {
      token: admin,
      json: { held: true },
    });
    expect(noReason.status).toBe(400);
    const hold = await api.request('PUT', `/api/computer-use/runs/${held}/legal-hold`, {
      token: admin,
      json: { held: true, reason: 'case 2026-17' },
    });
    expect(hold.status).toBe(200);
    expect(hold.body).toMatchObject({ run_id: held, held: true, reason: 'case 2026-17' });
    const missing = await api.request('PUT', `/api/computer-use/runs/${randomUUID()}/legal-hold`, {
      token: admin,
      json: { held: true, reason: 'x' },
    });
    expect(missing.status).toBe(404);
    await backdate(201);
    // Used again today: another step saw the same bytes (the store marks it used).
    const reusedPng = png();
    const reused = await runWith([reusedPng]);
    await backdate(201);
    await screens.store('acme', { png: reusedPng });
    const recent = await runWith([png()]);
    // The day before the old screens turn 200 days unused nothing goes.
    expect(
      await retention.purge({ now: new Date(Date.now() - 2 * 86_400_000), batch: 2 }),
    ).toMatchObject({ purged: 0 });

    const result = await retention.purge({ batch: 2 });
    expect(result).toEqual({ purged: 3, batches: 2, ran: true });

    for (const n of [1, 2, 3]) {
      const gone = await screenOf(old, n);
      expect(gone.status).toBe(410);
      expect(gone.body.message).toMatch(
        new RegExp(
          `^the screen of step ${n} of run ${old} was deleted on .* retention; its SHA-256 [0-9a-f]{64} stays`,
        ),
      );
    }
    for (const run of [held, reused, recent]) {
      const kept = await screenOf(run, 1);
      expect(kept.status).toBe(200);
      expect(kept.headers.get('content-type')).toBe('image/png');
    }
    // The step keeps its hash; the audit log names each dropped screen and still verifies.
    const [step] = await api.db.sql<{ screen_sha256: string }>(
      `SELECT screen_sha256 FROM steps WHERE run_id = $1 AND n = 1`,
      [old],
    );
    const purged = await api.db.sql<{ actor: string; details: { sha256: string[] } }>(
      `SELECT actor, details FROM audit_events WHERE type = 'screens.purged' ORDER BY seq`,
    );
    expect(purged.map((e) => e.actor)).toEqual(['system:retention', 'system:retention']);
    expect(purged.flatMap((e) => e.details.sha256)).toContain(step.screen_sha256);
    const verify = await api.request('GET', '/api/audit/verify', { token: auditor });
    expect(verify.body).toMatchObject({ ok: true });

    // A plain admin cannot lift the hold (a weakening): refused, and the next purge keeps it.
    const plain = await api.request('PUT', `/api/computer-use/runs/${held}/legal-hold`, {
      token: admin,
      json: { held: false, reason: 'case closed' },
    });
    expect(plain.status).toBe(403);
    expect(plain.body.message).toBe(
      'lifting a legal hold needs the permission governance.weaken as well as computer_use.admin',
    );
    expect(await retention.purge()).toMatchObject({ purged: 0 });
    expect((await screenOf(held, 1)).status).toBe(200);
    const unexplained = await api.request('PUT', `/api/computer-use/runs/${held}/legal-hold`, {
      token: weakener.token,
      json: { held: false },
    });
    expect(unexplained.status).toBe(400);
    expect(unexplained.body.message).toMatch(/^reason is required when a legal hold is lifted: /);

    // Lifted with the permission and a reason, the next purge takes the held run's screen.
    const lift = await api.request('PUT', `/api/computer-use/runs/${held}/legal-hold`, {
      token: weakener.token,
      json: { held: false, reason: 'case 2026-17 closed' },
    });
    expect(lift.status).toBe(200);
    expect(lift.body).toMatchObject({ held: false, reason: 'case 2026-17 closed' });
    expect(await retention.purge()).toMatchObject({ purged: 1 });
    expect((await screenOf(held, 1)).status).toBe(410);
    const events = await api.db.sql<{ type: string; actor: string; details: unknown }>(
      `SELECT type, actor, details FROM audit_events WHERE run_id = $1 ORDER BY seq`,
      [held],
    );
    expect(events.map((e) => e.type)).toEqual([
      'screens.legal_hold',
      'screens.legal_hold',
      'governance.weaken',
    ]);
    expect(events[2]).toEqual({
      type: 'governance.weaken',
      actor: 'wes',
      details: {
        control: 'legal_hold',
        run_id: held,
        from: true,
        to: false,
        reason: 'case 2026-17 closed',
        token_id: weakener.id,
      },
    });
    // Releasing a run that is not held loosens nothing: any admin's.
    const again = await api.request('PUT', `/api/computer-use/runs/${held}/legal-hold`, {
      token: admin,
      json: { held: false },
    });
    expect(again.status).toBe(200);
    expect((await api.request('GET', '/api/audit/verify', { token: auditor })).body.ok).toBe(true);
  });

  it('puts the bytes back when a step sees a dropped screen again', async () => {
    const { token } = await api.token('umbrella', 'uma', ['audit.read']);
    const again = png();
    const run = await runWith([again], 'umbrella');
    expect(
      await retention.purge({ now: new Date(daysFromNow(400)), tenant: 'umbrella' }),
    ).toMatchObject({ purged: 1 });
    expect((await screenOf(run, 1, token)).status).toBe(410);
    await screens.store('umbrella', { png: again });
    expect((await screenOf(run, 1, token)).status).toBe(200);
    const { sha256 } = await screens.store('umbrella', { png: again });
    expect(await screens.get('umbrella', sha256)).toEqual(again);
  });

  it('runs the purge from the CLI as of a chosen moment and for one tenant; a later moment only with --early', async () => {
    const { token } = await api.token('initech', 'ian', ['audit.read']);
    const run = await runWith([png(), png()], 'initech');
    const acme = await runWith([png()]);
    const early = await purgeCli('--tenant', 'initech', '--as-of', daysFromNow(181));
    expect(early.code).toBe(2);
    expect(early.stderr).toContain('is after now: screens would be dropped before');
    const malformed = await purgeCli('--as-of', '2027-06-01');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--as-of must be an ISO 8601 time with its zone');
    // 179 days on, within the 180 days: nothing goes.
    const within = await purgeCli('--tenant', 'initech', '--as-of', daysFromNow(179), '--early');
    expect(within.code).toBe(0);
    expect(within.stdout).toContain('purged 0 screens');
    const asOf = daysFromNow(181);
    const due = await purgeCli('--tenant', 'initech', '--as-of', asOf, '--early');
    expect(due.code).toBe(0);
    expect(due.stdout).toContain(`purged 2 screens in 1 batches, as of ${asOf} for tenant initech`);
    for (const n of [1, 2]) expect((await screenOf(run, n, token)).status).toBe(410);
    // acme's screen is as old, and another tenant's: kept.
    expect((await screenOf(acme, 1)).status).toBe(200);
    const [event] = await api.db.sql<{ actor: string; details: { at: string; count: number } }>(
      `SELECT actor, details FROM audit_events WHERE tenant = 'initech' AND type = 'screens.purged'`,
    );
    expect(event).toEqual({
      actor: 'system:retention',
      details: expect.objectContaining({ at: asOf, count: 2 }),
    });
  });

  it("runs on every worker by itself: the worker's daily purge drops what is due", async () => {
    const { token } = await api.token('hooli', 'hal', ['audit.read']);
    const run = await runWith([png()], 'hooli');
    // The job purges as of now, so here the screen is made old in SQL.
    await backdate(181, run);
    const worker = await createWorker(testConfig(api.db.url, { SCREEN_PURGE_DELAY_MS: '100' }));
    await worker.init();
    try {
      await until(
        'the worker purged it',
        async () => (await screenOf(run, 1, token)).status === 410,
      );
    } finally {
      await worker.close();
    }
  });

  it("stores a read's screen in one statement that also marks it used and puts dropped bytes back", async () => {
    // A process that has not seen the screen yet each time (a worker's read path: the structure
    // checked, the host's frame hash as its pixel hash).
    const fresh = () => new ScreensService(api.app.get(ScreensRepository), api.app.get(ScreenKeys));
    const image = png();
    const read = { png: image, pixelSha256: pixelSha256(decodePng(image)) };
    const { sha256 } = await fresh().store('acme', read, { check: 'structure' });
    const row = async () =>
      (
        await api.db.sql<{ used: Date; kept: boolean }>(
          `SELECT last_used_at AS used, png IS NOT NULL AS kept FROM screens
            WHERE tenant = 'acme' AND sha256 = $1`,
          [sha256],
        )
      )[0];
    const first = await row();
    expect(first.kept).toBe(true);
    // Seen again within the hour: nothing is written.
    await fresh().store('acme', read, { check: 'structure' });
    expect((await row()).used).toEqual(first.used);
    // Seen again two days later: marked used now.
    await api.db.sql(
      `UPDATE screens SET last_used_at = now() - interval '2 days' WHERE sha256 = $1`,
      [sha256],
    );
    await fresh().store('acme', read, { check: 'structure' });
    expect(Date.now() - (await row()).used.getTime()).toBeLessThan(60_000);
    // Dropped by retention, then seen again: the bytes are back.
    const run = await runWith([image]);
    await backdate(400, run);
    expect(await retention.purge()).toMatchObject({ purged: 1 });
    expect((await row()).kept).toBe(false);
    await fresh().store('acme', read, { check: 'structure' });
    expect((await screenOf(run, 1)).status).toBe(200);
    await expect(screens.get('acme', sha256)).resolves.toEqual(image);
  });

  it('lets one purge run at a time: another holding the lock makes it skip', async () => {
    const runner = api.app.get(DataSource).createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query(
        `SELECT pg_advisory_xact_lock(hashtextextended('warden:screen-purge', 0))`,
      );
      expect(await retention.purge()).toEqual({ purged: 0, batches: 0, ran: false });
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(await retention.purge()).toMatchObject({ ran: true });
  });
  it('shortening retention is a weakening: 403 for a plain admin, 400 without a reason, audited with one', async () => {
    const put = (token: string, json: Record<string, unknown>) =>
      api.request('PUT', '/api/admin/retention', { token, json });
    const days = async () =>
      (await api.request('GET', '/api/admin/retention', { token: admin })).body.retention_days;
    const weakened = () =>
      api.db.sql<{ actor: string; details: unknown }>(
        `SELECT actor, details FROM audit_events WHERE type = 'governance.weaken' ORDER BY seq`,
      );
    const before = (await weakened()).length;
    // Longer is any admin's.
    expect((await put(admin, { retention_days: 3650 })).status).toBe(200);

    const plain = await put(admin, { retention_days: 180, reason: 'save storage' });
    expect(plain.status).toBe(403);
    expect(plain.body.message).toBe(
      'shortening retention_days needs the permission governance.weaken as well as computer_use.admin',
    );
    expect(await days()).toBe(3650);
    const unexplained = await put(weakener.token, { retention_days: 180, reason: '  ' });
    expect(unexplained.status).toBe(400);
    expect(unexplained.body.message).toMatch(
      /^reason is required when retention_days is shortened: /,
    );
    expect(await days()).toBe(3650);
    expect(await weakened()).toHaveLength(before);

    const shortened = await put(weakener.token, {
      retention_days: 180,
      reason: 'the works council agreed six months',
    });
    expect(shortened.status).toBe(200);
    expect(await days()).toBe(180);
    const events = await weakened();
    expect(events.slice(before)).toEqual([
      {
        actor: 'wes',
        details: {
          control: 'retention_days',
          from: 3650,
          to: 180,
          reason: 'the works council agreed six months',
          token_id: weakener.id,
        },
      },
    ]);
    // Back to longer, by a plain admin: no weakening.
    expect((await put(admin, { retention_days: 200 })).status).toBe(200);
    expect(await weakened()).toHaveLength(before + 1);
  });
});
