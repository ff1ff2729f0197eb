import { createTestDatabase, TestDatabase } from '../support/database';
import { http } from '../support/api';
import { ENTRIES, runEntry, spawnEntry } from '../../scripts/lib/processes';
import { TEST_REDIS_URL } from '../support/env';
import type { ChildProcess } from 'node:child_process';
import { until } from '../support/until';

/** The admin CLI and the tokens it makes, run as real processes against a real database. */
describe('token CLI', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let api: ChildProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    env = { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'info' };
  });

  afterAll(async () => {
    api?.kill('SIGKILL');
    await db.drop();
  });

  const cli = (...args: string[]) => runEntry(ENTRIES.cli, args, env);

  it('creates a token, shows it once on the last line, stores only its hash, and revokes it', async () => {
    const created = await cli(
      'token',
      'create',
      '--tenant',
      'acme',
      '--subject',
      'alice',
      '--permissions',
      'audit.read,agents.operate',
    );
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split('\n');
    const token = lines[lines.length - 1];
    expect(token).toMatch(/^wdn_[A-Za-z0-9_-]{43}$/);
    expect(lines.slice(0, -1).join('\n')).not.toContain(token.slice(4));
    expect(created.stderr).not.toContain(token.slice(4));

    // Every column of every table, as text: the token is nowhere, its SHA-256 is.
    const tables = await db.sql<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`,
    );
    expect(tables.map((t) => t.tablename)).toEqual(
      expect.arrayContaining(['api_tokens', 'audit_events', 'migrations', 'tenants']),
    );
    for (const { tablename } of tables) {
      const rows = await db.sql<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM "${tablename}" t`,
      );
      for (const { row } of rows) expect(row).not.toContain(token.slice(4));
    }
    const { createHash } = await import('node:crypto');
    const stored = await db.sql<{ token_sha256: string; tenant: string }>(
      `SELECT token_sha256, tenant FROM api_tokens`,
    );
    expect(stored).toEqual([
      { token_sha256: createHash('sha256').update(token).digest('hex'), tenant: 'acme' },
    ]);

    const listed = await cli('token', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('alice');
    expect(listed.stdout).not.toContain(token.slice(4));
    const id = /created token ([0-9a-f-]{36})/.exec(created.stdout)![1];
    expect(listed.stdout).toContain(id);

    // The API accepts it for audit.read and refuses what it lacks; its logs never show it.
    api = spawnEntry(ENTRIES.api, [], { ...env, PORT: '0', HOST: '127.0.0.1' });
    let logs = '';
    api.stdout!.on('data', (d: Buffer) => (logs += d.toString()));
    api.stderr!.on('data', (d: Buffer) => (logs += d.toString()));
    const base = await waitForListening(api, () => logs);
    const audit = await http(base, 'GET', '/api/audit', { token });
    expect(audit.status).toBe(200);
    expect(audit.body.items.map((e: { type: string }) => e.type)).toEqual(['token.created']);
    const admin = await http(base, 'GET', '/api/audit/verify', { token: 'wdn_' + 'z'.repeat(43) });
    expect(admin.status).toBe(401);
    const viaQuery = await http(base, 'GET', `/api/audit?access_token=${token}`);
    expect(viaQuery.status).toBe(401);
    const docs = await http(base, 'GET', '/api/docs');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger');

    const revoked = await cli('token', 'revoke', id);
    expect(revoked.code).toBe(0);
    expect((await http(base, 'GET', '/api/audit', { token })).status).toBe(401);

    await until(
      'five requests in the log',
      () => (logs.match(/request completed/g) ?? []).length >= 5,
      10_000,
    );
    expect(logs).toContain('"url":"/api/audit?access_token=[redacted]"');
    expect(logs).toContain('"authorization":"[redacted]"');
    expect(logs).not.toContain(token.slice(4));
  });

  it('refuses unknown permissions and bad tenant names with a clear message', async () => {
    const bad = await cli(
      'token',
      'create',
      '--tenant',
      'acme',
      '--subject',
      'x',
      '--permissions',
      'root',
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('unknown permission root');
    const tenant = await cli(
      'token',
      'create',
      '--tenant',
      'Acme Corp',
      '--subject',
      'x',
      '--permissions',
      'audit.read',
    );
    expect(tenant.code).toBe(1);
    expect(tenant.stderr).toContain('tenant "Acme Corp" is not a valid name');
  });

  it('stops at start-up with a message naming a bad variable', async () => {
    const api = await runEntry(ENTRIES.api, [], { ...env, PORT: 'eighty' });
    expect(api.code).toBe(1);
    expect(api.stderr).toContain('PORT must be an integer');
    const cli2 = await runEntry(ENTRIES.cli, ['token', 'list'], {
      ...env,
      DATABASE_URL: 'mysql://nope',
    });
    expect(cli2.code).toBe(1);
    expect(cli2.stderr).toContain('DATABASE_URL must be a postgres:// URL');
  });
});

async function waitForListening(child: ChildProcess, output: () => string): Promise<string> {
  const port = await until(
    'the API listening',
    () => {
      if (child.exitCode !== null) throw new Error(`API exited: ${output()}`);
      return /listening on .*?:(\d+)/i.exec(output())?.[1];
    },
    30_000,
  );
  return `http://127.0.0.1:${port}`;
}
