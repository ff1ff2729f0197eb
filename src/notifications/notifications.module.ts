import { Module } from '@nestjs/common';
import { QueueModule } from '../queue/queue.module';
import { DeliveriesRepository } from './deliveries.repository';
import { Notifications } from './notifications.service';

/**
 * Announcing events to an agent's channels: what the API and the worker both call. The channels
 * come through AGENT_CHANNELS (agent-channels.ts), which the API and the worker bind.
 */
@Module({
  imports: [QueueModule],
  providers: [Notifications, DeliveriesRepository],
  exports: [Notifications, DeliveriesRepository],
})
export class NotificationsModule {}
