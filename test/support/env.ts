/** Where the tests find PostgreSQL and Redis: the machine's, unless the caller says otherwise. */
export const TEST_PG_ADMIN_URL =
  process.env.WARDEN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.WARDEN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Set by the global setup: every database this run creates starts with it, so teardown finds them. */
export function testRunPrefix(): string {
  const prefix = process.env.WARDEN_TEST_RUN;
  if (!prefix)
    throw new Error('WARDEN_TEST_RUN is not set: run the e2e tests through jest (global setup)');
  return prefix;
}
