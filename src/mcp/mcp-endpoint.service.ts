import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import {
  createMcpHandler,
  type McpHttpHandler,
  McpServer,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import type { Caller } from '../auth/caller';
import { RunsService } from '../computer-use/runs/runs.service';
import { SettingsService } from '../computer-use/settings/settings.service';
import { AppConfig } from '../config/app-config';
import { consoleBaseUrl } from '../notifications/console-base-url';
import { ComputerSession } from './computer-session.service';
import { registerComputerTools } from './computer-tools';
import { registerRunTools } from './run-tools';

/** What the server says it is. */
const SERVER_INFO = { name: 'warden', version: '1.0.0' };

const INSTRUCTIONS =
  'Warden governs every action on a screen-only system: reads are sent, writes wait for a person of the tenant (never for you). Start a run with start_run; for an agent whose planner is mcp-1-normal you decide each step: screenshot, then one action tool naming the frame_id you decided on. A held write is decided by a person at the approval link; poll approval_status.';

/**
 * Warden's MCP endpoint (docs/mcp.md), Streamable HTTP through the official SDK: one McpServer per
 * request, for the authenticated caller, with the runs tools and the governed computer's tools.
 * Authentication happens before (McpController); the caller reaches the tools through `authInfo`.
 */
@Injectable()
export class McpEndpoint implements OnModuleDestroy {
  private readonly logger = new Logger(McpEndpoint.name);
  private readonly handler: McpHttpHandler;

  constructor(
    private readonly config: AppConfig,
    private readonly runs: RunsService,
    private readonly settings: SettingsService,
    private readonly session: ComputerSession,
  ) {
    this.handler = createMcpHandler((ctx) => this.serverFor(ctx), {
      onerror: (error) => this.logger.warn({ err: error }, 'MCP request refused or failed'),
    });
  }

  /** Serves one HTTP exchange for the caller. */
  fetch(request: Request, caller: Caller): Promise<Response> {
    return this.handler.fetch(request, {
      authInfo: { token: 'verified', clientId: caller.subject, scopes: [], extra: { caller } },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.handler.close();
  }

  private serverFor(ctx: McpRequestContext): McpServer {
    const caller = ctx.authInfo?.extra?.caller as Caller | undefined;
    const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
    // The controller never serves a request without a caller; a factory call without one gets no tools.
    if (!caller) return server;
    const consoleBase = consoleBaseUrl(this.config);
    registerRunTools(server, caller, { runs: this.runs, settings: this.settings, consoleBase });
    registerComputerTools(server, caller, this.session, consoleBase);
    return server;
  }
}
