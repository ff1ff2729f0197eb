import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { DestinationGrantsRepository } from './destination-grants.repository';
import { Destinations } from './destinations.service';

/** Destination grants (docs/security.md "Destinations"): where Warden may connect on a tenant's behalf. */
@Module({
  imports: [TenantsModule],
  providers: [Destinations, DestinationGrantsRepository],
  exports: [Destinations],
})
export class DestinationsModule {}
