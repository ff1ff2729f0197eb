import { Module } from '@nestjs/common';
import { QueueModule } from '../queue/queue.module';
import { SettingsModule } from '../computer-use/settings/settings.module';
import { DeliveriesRepository } from './deliveries.repository';
import { Notifications } from './notifications.service';

/** Announcing events to an agent's channels: what the API and the worker both call. */
@Module({
  imports: [QueueModule, SettingsModule],
  providers: [Notifications, DeliveriesRepository],
  exports: [Notifications, DeliveriesRepository],
})
export class NotificationsModule {}
