import { Module } from '@nestjs/common';
import { ScriptGrantsService } from './script-grants.service';
import { SettingsRepository } from './settings.repository';
import { SettingsService } from './settings.service';

/** The admin config of computer use and the kill switches; the engine reads them through SettingsService. */
@Module({
  providers: [SettingsService, SettingsRepository, ScriptGrantsService],
  exports: [SettingsService, SettingsRepository, ScriptGrantsService],
})
export class SettingsModule {}
