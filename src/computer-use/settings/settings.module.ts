import { Module } from '@nestjs/common';
import { KillSwitchController } from './kill-switch.controller';
import { SettingsController } from './settings.controller';
import { SettingsService } from './settings.service';

/** The admin config of computer use and the kill switches; the engine reads them through SettingsService. */
@Module({
  controllers: [SettingsController, KillSwitchController],
  providers: [SettingsService],
  exports: [SettingsService],
})
export class SettingsModule {}
