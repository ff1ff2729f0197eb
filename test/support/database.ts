import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { migrationOptions } from '../../src/database/migration.options';
import { TEST_PG_ADMIN_URL, testRunPrefix } from './env';

export interface TestDatabase {
  name: string;
  url: string;
  /** Runs SQL on the test database as the superuser (for tamper tests and inspections). */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

function urlFor(name: string): string {
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * The name of this run's migrated template: the global setup migrates it once through the real
 * migrations, and every test database is a copy of it (CREATE DATABASE … TEMPLATE copies files, about
 * a tenth of the time of 32 migrations, once per suite and stack).
 */
export function templateName(): string {
  return `${testRunPrefix()}_template`;
}

/** Creates this run's template database and runs the real migrations on it (the global setup). */
export async function createTemplateDatabase(): Promise<void> {
  const name = templateName();
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  await migrate(urlFor(name));
}

/** Runs the real migrations on the database at `url`. */
export async function migrate(url: string): Promise<void> {
  const migrator = new DataSource(migrationOptions({ DATABASE_URL: url }));
  await migrator.initialize();
  try {
    await migrator.runMigrations({ transaction: 'each' });
  } finally {
    await migrator.destroy();
  }
}

/** A new database with a random name: a copy of the run's template, which the real migrations made. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `${testRunPrefix()}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName()}"`));
  const url = urlFor(name);
  // A pool, not one client: tests ask concurrently (lanes of the property test, Promise.all), and
  // a client given a query while it runs another only queues it (deprecated, gone in pg 9).
  const pool = new Pool({ connectionString: url, max: 4 });
  return {
    name,
    url,
    sql: async <T>(text: string, params?: unknown[]) =>
      (await pool.query(text, params)).rows as T[],
    drop: async () => {
      // pool.end() resolves before its idle clients' connections have closed: dropping the
      // database WITH (FORCE) at once ended them from the server's side, an error on a pool
      // nobody listens to any more (57P01, the governance property test's teardown).
      let left = pool.totalCount;
      const closed = new Promise<void>((resolve) => {
        if (left === 0) resolve();
        pool.on('remove', () => {
          if (--left === 0) resolve();
        });
      });
      await pool.end();
      await closed;
      await dropDatabase(name);
    },
  };
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

export async function listDatabases(prefix: string): Promise<string[]> {
  return admin(async (c) => {
    const { rows } = await c.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${prefix.replace(/_/g, '\\_')}%`],
    );
    return rows.map((r) => r.datname);
  });
}
