import { Module } from '@nestjs/common';
import { TenantsModule } from '../../tenants/tenants.module';
import { RemoteFamiliesRepository } from './remote-families.repository';
import { RemoteFamilies } from './remote-families.service';

/** The remote planner families the operator registers (the CLI uses it alone). */
@Module({
  imports: [TenantsModule],
  providers: [RemoteFamilies, RemoteFamiliesRepository],
  exports: [RemoteFamilies, RemoteFamiliesRepository],
})
export class RemoteFamiliesModule {}
