import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { NotifyQueue } from '../queue/notify-queue';
import { AGENT_CHANNELS, type AgentChannels } from './agent-channels';
import { consoleBaseUrl } from './console-base-url';
import { DeliveriesRepository } from './deliveries.repository';
import type { NotifyEvent } from './notify-event';
import { renderMessage } from './render-message';

/**
 * Tells an agent's channels what happened (docs/security.md). Only records and queues: the worker sends
 * (DeliverySending), so a run never waits for a receiver. Call it after the transaction that made
 * the event true has committed. It never throws: a notification that cannot even be queued is
 * logged, and the run goes on.
 */
@Injectable()
export class Notifications {
  private readonly logger = new Logger(Notifications.name);

  constructor(
    private readonly config: AppConfig,
    @Inject(AGENT_CHANNELS) private readonly agents: AgentChannels,
    private readonly deliveries: DeliveriesRepository,
    private readonly queue: NotifyQueue,
  ) {}

  async announce(tenant: string, agent: string, event: NotifyEvent): Promise<void> {
    try {
      const { channels, includeScreen } = await this.agents.of(tenant, agent);
      if (channels.length === 0) return;
      const message = renderMessage(event, {
        tenant,
        agent,
        includeScreen,
        baseUrl: consoleBaseUrl(this.config),
        now: new Date(),
      });
      const rows = await this.deliveries.createMany(
        channels.map((channel) => ({
          tenant,
          agent,
          runId: event.run.id,
          approvalId: message.approval_id,
          event: event.kind,
          channelKind: channel.kind,
          channel,
          message,
        })),
      );
      for (const row of rows) await this.queue.deliver(row.id);
    } catch (error) {
      this.logger.warn(
        { err: error, tenant, agent, event: event.kind, run: event.run.id },
        'a notification could not be queued',
      );
    }
  }
}
