import { Redis } from 'ioredis';
import { dropDatabase, listDatabases } from './support/database';
import { TEST_REDIS_URL } from './support/env';

/** Drops whatever this run left behind (a test killed half-way cannot clean up after itself). */
export default async function globalTeardown(): Promise<void> {
  const prefix = process.env.WARDEN_TEST_RUN;
  if (!prefix) return;
  for (const name of await listDatabases(prefix)) await dropDatabase(name);
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
