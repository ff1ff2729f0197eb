import { Module } from '@nestjs/common';
import { ScreensModule } from '../screens/screens.module';
import { DoctorController } from './doctor.controller';
import { KillSwitchController } from './kill-switch.controller';
import { PauseController } from './pause.controller';
import { SettingsController } from './settings.controller';
import { SettingsModule } from './settings.module';

/** The admin API: the config, the kill switches and the doctor. */
@Module({
  imports: [SettingsModule, ScreensModule],
  controllers: [SettingsController, KillSwitchController, PauseController, DoctorController],
})
export class SettingsApiModule {}
