import { Module } from '@nestjs/common';
import { ModelsModule } from '../models/models.module';
import { RemoteModule } from '../remote/remote.module';
import { SettingsModule } from '../settings/settings.module';
import { PlannersService } from './planners.service';
import { ScriptedPlannersRepository } from './scripted-planners.repository';

/** Planners (docs/models.md): `PlannersService.plannerFor` for the engine, the scripted planners' store. */
@Module({
  imports: [ModelsModule, RemoteModule, SettingsModule],
  providers: [PlannersService, ScriptedPlannersRepository],
  exports: [PlannersService, ScriptedPlannersRepository],
})
export class PlanningModule {}
