import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { NotifyChannel } from '../computer-use/settings/agent-config';
import { SettingsService } from '../computer-use/settings/settings.service';
import { NotifyQueue } from '../queue/notify-queue';
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
    private readonly settings: SettingsService,
    private readonly deliveries: DeliveriesRepository,
    private readonly queue: NotifyQueue,
  ) {}

  async announce(tenant: string, agent: string, event: NotifyEvent): Promise<void> {
    try {
      // The channels in force now: a channel the admin just added hears about older runs too.
      const config = await this.settings.agent(tenant, agent);
      const channels: NotifyChannel[] = config?.notify ?? [];
      if (channels.length === 0) return;
      const message = renderMessage(event, {
        tenant,
        agent,
        includeScreen: config?.notify_include_screen === true,
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
