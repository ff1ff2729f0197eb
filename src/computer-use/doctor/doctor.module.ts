import { Module } from '@nestjs/common';
import { SecretsModule } from '../../secrets/secrets.module';
import { HostClientModule } from '../host-client/host-client.module';
import { SettingsModule } from '../settings/settings.module';
import { DoctorController } from './doctor.controller';
import { DoctorService } from './doctor.service';

/**
 * The doctor (docs/api.md, `GET /api/admin/agents/{name}/doctor`): checks an agent's screen host the
 * way a step will use it, without acting on it.
 */
@Module({
  imports: [SettingsModule, HostClientModule, SecretsModule],
  controllers: [DoctorController],
  providers: [DoctorService],
})
export class DoctorModule {}
