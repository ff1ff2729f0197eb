import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditService } from '../../src/audit/audit.service';
import { ENTRIES, runEntry } from '../../scripts/lib/processes';
import { startApi, type TestApi } from '../support/api';
import { TEST_REDIS_URL } from '../support/env';

/**
 * `npm run cli -- audit verify`, run as a real process: the tenant's chain checked straight from
 * the database, and an NDJSON export checked with no database at all, each with the answer `GET
 * /api/audit/verify` gives, and a non-zero exit when the chain is broken.
 */
describe('audit verify CLI', () => {
  let api: TestApi;
  let auditor: string;
  const dir = mkdtempSync(join(tmpdir(), 'warden-audit-cli-'));

  beforeAll(async () => {
    api = await startApi();
    auditor = (await api.token('acme', 'ada', ['audit.read'])).token;
    await api.token('globex', 'gus', ['audit.read']);
    const audit = api.app.get(AuditService);
    for (let i = 0; i < 5; i++) {
      await audit.record({ tenant: 'acme', type: 'test.event', actor: 'tester', details: { i } });
    }
  });

  afterAll(async () => {
    await api?.close();
  });

  const cli = (...args: string[]) =>
    runEntry(ENTRIES.cli, ['audit', 'verify', ...args], {
      DATABASE_URL: api.db.url,
      REDIS_URL: TEST_REDIS_URL,
    });
  /** An auditor's file: the NDJSON export the API streams. */
  const exportTo = async (name: string): Promise<string> => {
    const response = await api.request('GET', '/api/audit', {
      token: auditor,
      headers: { accept: 'application/x-ndjson' },
    });
    expect(response.status).toBe(200);
    const path = join(dir, name);
    writeFileSync(path, response.text);
    return path;
  };
  const verified = async () =>
    (await api.request('GET', '/api/audit/verify', { token: auditor })).body;
  const json = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!);

  it("verifies the tenant's chain from the database with the API's answer", async () => {
    const fromDb = await cli('--tenant', 'acme');
    expect(fromDb.code).toBe(0);
    expect(json(fromDb.stdout)).toEqual(await verified());
    expect(json(fromDb.stdout)).toMatchObject({ ok: true, checked: 6 });
    const missing = await cli();
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('audit verify needs --tenant (or --file with an export)');
  });

  it('verifies an export with no database, the head the same as the API says', async () => {
    const file = await exportTo('acme.ndjson');
    const offline = await runEntry(ENTRIES.cli, ['audit', 'verify', '--file', file], {});
    expect(offline.code).toBe(0);
    expect(json(offline.stdout)).toEqual({ ...(await verified()), tenant: 'acme' });
  });

  it('exits 1 naming the first bad event, in the database and in an export made after', async () => {
    const [victim] = await api.db.sql<{ id: string }>(
      `SELECT id FROM audit_events WHERE tenant = 'acme' ORDER BY seq OFFSET 2 LIMIT 1`,
    );
    const kept = await exportTo('before.ndjson');
    await api.db.sql(`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`);
    try {
      await api.db.sql(`UPDATE audit_events SET details = '{"i": 99}' WHERE id = $1`, [victim.id]);
    } finally {
      await api.db.sql(`ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only`);
    }
    const answer = await verified();
    expect(answer).toMatchObject({ ok: false, first_bad_id: victim.id });
    const fromDb = await cli('--tenant', 'acme');
    expect(fromDb.code).toBe(1);
    expect(json(fromDb.stdout)).toEqual(answer);
    expect(fromDb.stderr).toContain(`the chain is broken at event ${victim.id}`);
    const changed = await cli('--file', await exportTo('after.ndjson'));
    expect(changed.code).toBe(1);
    expect(json(changed.stdout)).toEqual({ ...answer, tenant: 'acme' });
    // The export kept from before still verifies: it is the evidence of what the row said.
    expect((await cli('--file', kept)).code).toBe(0);
    // The other tenant's chain is untouched.
    expect((await cli('--tenant', 'globex')).code).toBe(0);
  });

  it('refuses a file it cannot read or that holds no chain, with a clear error', async () => {
    const gone = await cli('--file', join(dir, 'nowhere.ndjson'));
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('cannot read');
    const garbage = join(dir, 'garbage.ndjson');
    writeFileSync(garbage, 'not json\n');
    const bad = await cli('--file', garbage);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('line 1 is not an audit event: not JSON');
    const both = await cli('--file', garbage, '--tenant', 'acme');
    expect(both.code).toBe(2);
  });
});
