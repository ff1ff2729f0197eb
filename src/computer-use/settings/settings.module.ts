import { Module } from '@nestjs/common';
import { ScreensModule } from '../screens/screens.module';
import { DoctorController } from './doctor.controller';
import { KillSwitchController } from './kill-switch.controller';
import { SettingsController } from './settings.controller';
import { SettingsService } from './settings.service';

/** The admin config of computer use and the kill switches; the engine reads them through SettingsService. */
@Module({
  imports: [ScreensModule],
  controllers: [SettingsController, KillSwitchController, DoctorController],
  providers: [SettingsService],
  exports: [SettingsService],
})
export class SettingsModule {}
