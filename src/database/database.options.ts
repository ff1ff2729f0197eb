import type { DataSourceOptions } from 'typeorm';
import { Approval } from '../computer-use/approvals/approval.entity';
import { Run } from '../computer-use/runs/run.entity';
import { Step } from '../computer-use/runs/step.entity';
import { AuditEvent } from '../audit/audit-event.entity';
import { ApiToken } from '../auth/api-token.entity';
import type { AppConfig } from '../config/app-config';
import { Tenant } from '../tenants/tenant.entity';
import { ScriptedPlannerRecord } from '../computer-use/planning/scripted-planner.entity';
import { ComputerUseConfigVersion } from '../computer-use/settings/computer-use-config.entity';
import { KillSwitch } from '../computer-use/settings/kill-switch.entity';
import { TenantPause } from '../computer-use/settings/tenant-pause.entity';
import { Screen } from '../computer-use/screens/screen.entity';
import { ModelCall } from '../computer-use/models/model-call.entity';
import { ModelUsageDay } from '../computer-use/models/model-usage-day.entity';
import { SecretGrant } from '../secrets/secret-grant.entity';
import { Delivery } from '../notifications/delivery.entity';
import { AuditSink } from '../audit-sinks/audit-sink.entity';
import { DestinationGrant } from '../destinations/destination-grant.entity';

export const ENTITIES = [
  Tenant,
  ApiToken,
  AuditEvent,
  ScriptedPlannerRecord,
  ComputerUseConfigVersion,
  KillSwitch,
  TenantPause,
  Run,
  Step,
  Approval,
  Screen,
  ModelCall,
  ModelUsageDay,
  SecretGrant,
  Delivery,
  AuditSink,
  DestinationGrant,
];

/**
 * The one set of database options, shared by the API, the worker, the CLI and TypeORM's CLI. The
 * migrations are not in it: what applies them takes `migrationOptions` (migration.options.ts), and
 * everything else starts without loading them (their imports were almost a third of a CLI
 * command's start).
 */
export function databaseOptions(config: Pick<AppConfig, 'DATABASE_URL'>): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.DATABASE_URL,
    entities: ENTITIES,
    migrationsTableName: 'migrations',
    uuidExtension: 'pgcrypto',
    synchronize: false,
    migrationsRun: false,
    extra: { max: 10, connectionTimeoutMillis: 5000 },
  };
}
