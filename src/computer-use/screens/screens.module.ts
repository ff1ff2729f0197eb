import { Module } from '@nestjs/common';
import { ScreenKeys } from './screen-keys';
import { ScreenRekey } from './screen-rekey.service';
import { ScreensRepository } from './screens.repository';
import { ScreensService } from './screens.service';

/**
 * Screens as stored (docs/security.md): content-addressed by SHA-256, sealed with the deployment's screen
 * keys, and re-sealed under a new key. Needs the TypeORM data source of the root module.
 */
@Module({
  providers: [ScreensService, ScreensRepository, ScreenKeys, ScreenRekey],
  exports: [ScreensService, ScreenRekey],
})
export class ScreensModule {}
