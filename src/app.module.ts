import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { databaseOptions } from './database/database.options';
import { HealthModule } from './health/health.module';
import { LoggingModule } from './logging/logging.module';
import { MetricsModule } from './metrics/metrics.module';
import { RedisModule } from './redis/redis.module';
import { PlanningModule } from './computer-use/planning/planning.module';
import { SettingsModule } from './computer-use/settings/settings.module';
import { RunsModule } from './computer-use/runs/runs.module';
import { ApprovalsModule } from './approvals/approvals.module';
import { ConsoleModule } from './console/console.module';

/** Infrastructure every entry point shares: config, database, Redis, logs, audit. */
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

/** The API. */
@Module({})
export class AppModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRoot(config), AuthModule, HealthModule, MetricsModule, PlanningModule, SettingsModule, RunsModule, ApprovalsModule, ConsoleModule],
    };
  }
}
