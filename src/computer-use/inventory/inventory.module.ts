import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { InventoryController } from './inventory.controller';
import { InventoryRepository } from './inventory.repository';
import { InventoryService } from './inventory.service';

/** `GET /api/admin/inventory`: the tenant's agents, what they run on, and how they have been doing. */
@Module({
  imports: [SettingsModule],
  controllers: [InventoryController],
  providers: [InventoryService, InventoryRepository],
})
export class InventoryModule {}
