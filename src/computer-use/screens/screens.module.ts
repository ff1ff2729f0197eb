import { Module } from '@nestjs/common';
import { SecretsModule } from '../../secrets/secrets.module';
import { DoctorService } from './doctor.service';
import { ScreenHostClient } from './screen-host.client';
import { ScreenKeys } from './screen-keys';
import { ScreenRekey } from './screen-rekey.service';
import { ScreensRepository } from './screens.repository';
import { ScreensService } from './screens.service';

/**
 * Screen hosts and screens: the HTTPS client, the content-addressed store and the doctor. Needs
 * the TypeORM data source of the root module.
 */
@Module({
  imports: [SecretsModule],
  providers: [
    ScreenHostClient,
    ScreensService,
    ScreensRepository,
    DoctorService,
    ScreenKeys,
    ScreenRekey,
  ],
  exports: [ScreenHostClient, ScreensService, DoctorService, ScreenRekey],
})
export class ScreensModule {}
