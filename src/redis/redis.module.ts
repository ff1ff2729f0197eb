import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '../config/app-config';

export const REDIS = Symbol('REDIS');

/** A shared ioredis connection (health, leases). BullMQ opens its own from the same URL. */
@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const redis = new Redis(config.REDIS_URL, {
          maxRetriesPerRequest: 3,
          enableOfflineQueue: false,
          lazyConnect: false,
        });
        // Without a listener ioredis writes "[ioredis] Unhandled error event" and a stack to
        // stderr on every reconnect attempt while Redis is away; it reconnects either way.
        const logger = new Logger('Redis');
        redis.on('error', (error: Error) => {
          logger.warn({ err: error }, 'the Redis connection reported an error');
        });
        return redis;
      },
    },
    RedisCloser,
  ],
  exports: [REDIS],
})
export class RedisModule {}
