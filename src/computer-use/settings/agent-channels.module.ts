import { Global, Injectable, Module } from '@nestjs/common';
import {
  AGENT_CHANNELS,
  type AgentChannels,
  type ChannelsInForce,
} from '../../notifications/agent-channels';
import { SettingsModule } from './settings.module';
import { SettingsService } from './settings.service';

/** An agent's channels as its config in force says, read at each announcement. */
@Injectable()
export class SettingsAgentChannels implements AgentChannels {
  constructor(private readonly settings: SettingsService) {}

  async of(tenant: string, agent: string): Promise<ChannelsInForce> {
    // The channels in force now: a channel the admin just added hears about older runs too.
    const config = await this.settings.agent(tenant, agent);
    return {
      channels: config?.notify ?? [],
      includeScreen: config?.notify_include_screen === true,
    };
  }
}

/**
 * Binds notifications' AGENT_CHANNELS to the agents' config. Global, imported once by the API
 * (app.module.ts) and the worker (worker.module.ts), so that NotificationsModule, wherever it is
 * imported, finds it without importing computer use.
 */
@Global()
@Module({
  imports: [SettingsModule],
  providers: [{ provide: AGENT_CHANNELS, useClass: SettingsAgentChannels }],
  exports: [AGENT_CHANNELS],
})
export class AgentChannelsModule {}
