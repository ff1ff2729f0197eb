import { DynamicModule, Module } from '@nestjs/common';
import { ApprovalsModule } from './approvals/approvals.module';
import { AuthModule } from './auth/auth.module';
import { PlanningModule } from './computer-use/planning/planning.module';
import { RunsModule } from './computer-use/runs/runs.module';
import { SettingsModule } from './computer-use/settings/settings.module';
import type { AppConfig } from './config/app-config';
import { ConsoleModule } from './console/console.module';
import { CoreModule } from './core.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';

/** The API. */
@Module({})
export class AppModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config),
        AuthModule,
        HealthModule,
        MetricsModule,
        SettingsModule,
        PlanningModule,
        RunsModule,
        ApprovalsModule,
        ConsoleModule,
      ],
    };
  }
}
