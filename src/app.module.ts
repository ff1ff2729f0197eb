import { DynamicModule, Module } from '@nestjs/common';
import { ApprovalsApiModule } from './computer-use/approvals-api/approvals-api.module';
import { AuditApiModule } from './audit-api/audit-api.module';
import { AuditSinksApiModule } from './audit-sinks/audit-sinks-api.module';
import { AuthModule } from './auth/auth.module';
import { ChatModule } from './chat/chat.module';
import { OidcModule } from './auth/oidc/oidc.module';
import { InventoryModule } from './computer-use/inventory/inventory.module';
import { CatalogApiModule } from './computer-use/catalog/catalog-api.module';
import { DoctorModule } from './computer-use/doctor/doctor.module';
import { RemoteApiModule } from './computer-use/remote/remote-api.module';
import { RetentionApiModule } from './computer-use/retention/retention-api.module';
import { RoutinesModule } from './computer-use/routines/routines.module';
import { RunsModule } from './computer-use/runs/runs.module';
import { McpModule } from './mcp/mcp.module';
import { AgentChannelsModule } from './computer-use/settings/agent-channels.module';
import { SettingsApiModule } from './computer-use/settings/settings-api.module';
import type { AppConfig } from './config/app-config';
import { ConsoleModule } from './console/console.module';
import { CoreModule } from './core.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { ModelsApiModule } from './computer-use/models/models-api.module';
import { DeliveriesApiModule } from './notifications/deliveries-api.module';

/** The API: every controller, on the core. The worker (worker.module.ts) loads none of these. */
@Module({})
export class AppModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config),
        AgentChannelsModule,
        AuthModule,
        OidcModule,
        HealthModule,
        MetricsModule,
        AuditApiModule,
        SettingsApiModule,
        DoctorModule,
        CatalogApiModule,
        RemoteApiModule,
        ModelsApiModule,
        RunsModule,
        McpModule,
        RoutinesModule,
        ApprovalsApiModule,
        ChatModule,
        ConsoleModule,
        DeliveriesApiModule,
        AuditSinksApiModule,
        InventoryModule,
        RetentionApiModule,
      ],
    };
  }
}
