import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from './audit/audit.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { databaseOptions } from './database/database.options';
import { LoggingModule } from './logging/logging.module';
import { RedisModule } from './redis/redis.module';

/**
 * Infrastructure every entry point shares: config, database, Redis, logs, audit. In a file of its
 * own so that the CLI does not load the whole API to make a token.
 */
@Module({})
export class CoreModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule,
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (c: AppConfig) => databaseOptions(c),
        }),
        RedisModule,
        AuditModule,
      ],
    };
  }
}
