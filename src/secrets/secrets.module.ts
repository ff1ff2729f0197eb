import { Module } from '@nestjs/common';
import { DestinationsModule } from '../destinations/destinations.module';
import { TenantsModule } from '../tenants/tenants.module';
import { SecretGrantsRepository } from './secret-grants.repository';
import { SecretGrants } from './secret-grants.service';

/**
 * Secret grants (docs/screen-host.md): who may send which environment variable where. Exports the
 * destinations too: whatever sends a secret also connects somewhere.
 */
@Module({
  imports: [TenantsModule, DestinationsModule],
  providers: [SecretGrants, SecretGrantsRepository],
  exports: [SecretGrants, DestinationsModule],
})
export class SecretsModule {}
