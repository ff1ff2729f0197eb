import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './config/app-config';
import { LoggingModule } from './logging/logging.module';
import { RedisModule } from './redis/redis.module';
import { StoreModule } from './store.module';

/**
 * Infrastructure the API and the worker share: config, database and audit (StoreModule), Redis and
 * logs.
 */
@Module({})
export class CoreModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [StoreModule.forRoot(config), LoggingModule, RedisModule],
    };
  }
}
