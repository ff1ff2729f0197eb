import type { NotifyChannel } from './notify-channel';

/** An agent's channels in force now, and whether their messages may carry the screen. */
export interface ChannelsInForce {
  channels: NotifyChannel[];
  includeScreen: boolean;
}

/**
 * Where notifications read an agent's channels from. The agent's config lives with computer use,
 * which tells of its runs through notifications: so notifications name what they need here, and the
 * API and the worker bind it (computer-use/settings/agent-channels.module.ts) to the config in force.
 */
export interface AgentChannels {
  /** An unknown agent has no channels. */
  of(tenant: string, agent: string): Promise<ChannelsInForce>;
}

export const AGENT_CHANNELS = Symbol('AGENT_CHANNELS');
