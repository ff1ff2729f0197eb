import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets/secrets.module';
import { DeliveryProcessor } from './delivery.processor';
import { DeliverySending } from './delivery-sending.service';
import { NotificationsModule } from './notifications.module';

/** The worker's part of notifications: the processor that sends each delivery. */
@Module({
  imports: [NotificationsModule, SecretsModule],
  providers: [DeliverySending, DeliveryProcessor],
})
export class NotificationsWorkerModule {}
