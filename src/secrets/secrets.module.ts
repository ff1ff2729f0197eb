import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { SecretGrantsRepository } from './secret-grants.repository';
import { SecretGrants } from './secret-grants.service';

/** Secret grants (DESIGN §7): who may send which environment variable where. */
@Module({
  imports: [TenantsModule],
  providers: [SecretGrants, SecretGrantsRepository],
  exports: [SecretGrants],
})
export class SecretsModule {}
