import { Module } from '@nestjs/common';
import { SecretsModule } from '../../secrets/secrets.module';
import { HostClientModule } from '../host-client/host-client.module';
import { DoctorService } from './doctor.service';
import { ScreenKeys } from './screen-keys';
import { ScreenRekey } from './screen-rekey.service';
import { ScreensRepository } from './screens.repository';
import { ScreensService } from './screens.service';

/**
 * Screens: the content-addressed store and the doctor. Needs the TypeORM data source of the root
 * module.
 */
@Module({
  imports: [SecretsModule, HostClientModule],
  providers: [ScreensService, ScreensRepository, DoctorService, ScreenKeys, ScreenRekey],
  exports: [ScreensService, DoctorService, ScreenRekey],
})
export class ScreensModule {}
