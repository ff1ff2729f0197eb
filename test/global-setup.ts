import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Redis } from 'ioredis';
import { buildConsole } from '../scripts/build-console';
import { createTemplateDatabase } from './support/database';
import { TEST_PG_ADMIN_URL, TEST_REDIS_URL } from './support/env';

/**
 * Checks that PostgreSQL and Redis answer (with a message that says how to start them), names
 * this run (each test file creates its own databases under this prefix, copies of the run's
 * migrated template, and Redis keys under it), and builds the console into dist/console/, where
 * the API serves it from: the tests open the console of the sources they test, built or not before.
 */
export default async function globalSetup(): Promise<void> {
  const pg = new Client({ connectionString: TEST_PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await pg.connect();
    await pg.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${TEST_PG_ADMIN_URL} (start it, see .ci/run): ${String(error)}`,
      { cause: error },
    );
  } finally {
    await pg.end().catch(() => undefined);
  }
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(
      `Redis is not reachable at ${TEST_REDIS_URL} (start it, see .ci/run): ${String(error)}`,
      { cause: error },
    );
  } finally {
    redis.disconnect();
  }
  process.env.WARDEN_TEST_RUN = `warden_test_${randomBytes(3).toString('hex')}`;
  await Promise.all([createTemplateDatabase(), buildConsole()]);
}
