import { Module } from '@nestjs/common';
import { PlanningModule } from '../planning/planning.module';
import { RemoteModule } from '../remote/remote.module';
import { SettingsModule } from '../settings/settings.module';
import { PlannerAccessModule } from './planner-access.module';
import { PlannerCatalog } from './planner-catalog.service';

/**
 * The planner catalog (docs/planners.md "Planners as a catalog"): which planners a caller may use and
 * why, checked at the config's PUT and at every run start.
 */
@Module({
  imports: [PlanningModule, SettingsModule, PlannerAccessModule, RemoteModule],
  providers: [PlannerCatalog],
  exports: [PlannerCatalog],
})
export class CatalogModule {}
