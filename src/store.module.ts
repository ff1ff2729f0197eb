import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from './audit/audit.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { databaseOptions } from './database/database.options';

/**
 * Config, the database and the audit log: all that an operator's CLI command needs to change
 * records and audit them. Every entry point has it (CoreModule adds logs and Redis for the
 * API and the worker).
 */
@Module({})
export class StoreModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: StoreModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (c: AppConfig) => databaseOptions(c),
        }),
        AuditModule,
      ],
    };
  }
}
