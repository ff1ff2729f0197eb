import { Module } from '@nestjs/common';
import { PlanningModule } from '../planning/planning.module';
import { ScreensModule } from '../screens/screens.module';
import { SettingsModule } from '../settings/settings.module';
import { RunStateModule } from './run-state.module';
import { RunsController } from './runs.controller';
import { RunsService } from './runs.service';
import { StepDoneListener } from './step-done.listener';

/** The runs API: start, list, read, resume and cancel runs. */
@Module({
  imports: [RunStateModule, SettingsModule, PlanningModule, ScreensModule],
  controllers: [RunsController],
  providers: [RunsService, StepDoneListener],
  exports: [RunsService],
})
export class RunsModule {}
