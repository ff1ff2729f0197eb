import { Module } from '@nestjs/common';
import { DeliveriesController } from './deliveries.controller';
import { DeliveriesService } from './deliveries.service';
import { NotificationsModule } from './notifications.module';

/** `GET /api/admin/deliveries`: what was sent to whom, and how it went. */
@Module({
  imports: [NotificationsModule],
  controllers: [DeliveriesController],
  providers: [DeliveriesService],
})
export class DeliveriesApiModule {}
