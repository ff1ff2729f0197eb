/**
 * The demo: a fresh `warden_demo` database through the real migrations, the real API on a loopback
 * port, tokens made as the CLI makes them, and the calls an auditor makes. Everything it starts, it stops.
 */
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createApp } from '../src/app.factory';
import { TokensService } from '../src/auth/tokens.service';
import { loadConfig } from '../src/config/app-config';
import { databaseOptions } from '../src/database/database.options';

const ADMIN_URL = process.env.WARDEN_DEMO_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DEMO_DB = 'warden_demo';

async function main(): Promise<void> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DEMO_DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DEMO_DB}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DEMO_DB}`;
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url.toString(),
    LOG_LEVEL: 'warn',
    PORT: '0',
    QUEUE_PREFIX: 'warden-demo',
  });

  const migrator = new DataSource(databaseOptions(config));
  await migrator.initialize();
  const ran = await migrator.runMigrations({ transaction: 'each' });
  await migrator.destroy();
  step(`database ${DEMO_DB}: applied ${ran.map((m) => m.name).join(', ')}`);

  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const base = await app.getUrl();
  try {
    step(`API listening on ${base} (OpenAPI at ${base}/api/docs)`);
    const tokens = app.get(TokensService);
    const auditor = await tokens.create('acme', 'ada', ['audit.read'], 'demo');
    const operator = await tokens.create('acme', 'olga', ['agents.operate'], 'demo');
    step(
      'tokens made for ada (audit.read) and olga (agents.operate); only their SHA-256 is stored',
    );

    const call = async (path: string, token: string) => {
      const response = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const me = await call('/api/me', auditor.token);
    step(`GET /api/me as ada → ${me.status} ${JSON.stringify(me.body)}`);
    const denied = await call('/api/audit', operator.token);
    step(`GET /api/audit as olga → ${denied.status} ${JSON.stringify(denied.body)}`);
    const audit = await call('/api/audit', auditor.token);
    step(`GET /api/audit as ada → ${audit.status}, the audit trail:`);
    console.table(
      (audit.body.items as Array<Record<string, unknown>>).map((e) => ({
        seq: e.seq,
        type: e.type,
        actor: e.actor,
        at: e.at,
        sha256: String(e.sha256).slice(0, 16) + '…',
      })),
    );
    const verify = await call('/api/audit/verify', auditor.token);
    step(`GET /api/audit/verify → ${JSON.stringify(verify.body)}`);
  } finally {
    await app.close();
    step('stopped the API; the demo database stays for a look (psql warden_demo)');
  }
}

function step(text: string): void {
  console.log(`• ${text}`);
}

main().catch((error: unknown) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
