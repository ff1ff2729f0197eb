import { Module } from '@nestjs/common';
import { SecretsModule } from '../../secrets/secrets.module';
import { CatalogModule } from '../catalog/catalog.module';
import { PlanningModule } from '../planning/planning.module';
import { ScreensModule } from '../screens/screens.module';
import { SettingsModule } from '../settings/settings.module';
import { RunStateModule } from './run-state.module';
import { RunAdmission } from './run-admission.service';
import { RunsController } from './runs.controller';
import { RunsService } from './runs.service';
import { StepDoneListener } from './step-done.listener';

/** The runs API: start, list, read, resume and cancel runs. */
@Module({
  imports: [
    RunStateModule,
    SettingsModule,
    PlanningModule,
    CatalogModule,
    ScreensModule,
    SecretsModule,
  ],
  controllers: [RunsController],
  providers: [RunsService, RunAdmission, StepDoneListener],
  exports: [RunsService],
})
export class RunsModule {}
