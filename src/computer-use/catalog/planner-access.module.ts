import { Module } from '@nestjs/common';
import { TenantsModule } from '../../tenants/tenants.module';
import { PlannerAccessRepository } from './planner-access.repository';
import { PlannerAccess } from './planner-access.service';

/** The operator's allows, denies, tags and programs of the planner catalog (the CLI uses it alone). */
@Module({
  imports: [TenantsModule],
  providers: [PlannerAccess, PlannerAccessRepository],
  exports: [PlannerAccess, PlannerAccessRepository],
})
export class PlannerAccessModule {}
