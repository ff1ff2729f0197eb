import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AuditSinksWorkerModule } from './audit-sinks/audit-sinks-worker.module';
import { CoreModule } from './core.module';
import { EngineModule } from './computer-use/engine/engine.module';
import { RetentionWorkerModule } from './computer-use/retention/retention-worker.module';
import { AgentChannelsModule } from './computer-use/settings/agent-channels.module';
import type { AppConfig } from './config/app-config';

/** The worker: BullMQ step processors, the reconciler, the audit shipper and the screen purge, no HTTP server (docs/operations.md). */
@Module({})
export class WorkerModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot(config),
        AgentChannelsModule,
        EngineModule,
        AuditSinksWorkerModule,
        RetentionWorkerModule,
      ],
    };
  }
}

/** Builds the worker exactly as `worker.ts` runs it; e2e tests call this too. */
export async function createWorker(config?: AppConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  return app;
}
