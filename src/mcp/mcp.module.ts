import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RemoteModule } from '../computer-use/remote/remote.module';
import { RunsModule } from '../computer-use/runs/runs.module';
import { SettingsModule } from '../computer-use/settings/settings.module';
import { QueueModule } from '../queue/queue.module';
import { ComputerSession } from './computer-session.service';
import { McpController } from './mcp.controller';
import { McpEndpoint } from './mcp-endpoint.service';

/** Warden as an MCP server (docs/mcp.md): `/mcp` and its protected-resource metadata. */
@Module({
  imports: [AuthModule, RunsModule, RemoteModule, SettingsModule, QueueModule],
  controllers: [McpController],
  providers: [McpEndpoint, ComputerSession],
})
export class McpModule {}
