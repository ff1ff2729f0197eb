import { Module } from '@nestjs/common';
import { KillSwitchController } from './kill-switch.controller';
import { PauseController } from './pause.controller';
import { SettingsController } from './settings.controller';
import { SettingsModule } from './settings.module';

/** The admin API: the config and the kill switches (the doctor is DoctorModule's). */
@Module({
  imports: [SettingsModule],
  controllers: [SettingsController, KillSwitchController, PauseController],
})
export class SettingsApiModule {}
