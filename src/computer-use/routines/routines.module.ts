import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { PlanningModule } from '../planning/planning.module';
import { RunStateModule } from '../runs/run-state.module';
import { RoutinesController } from './routines.controller';
import { RoutinesService } from './routines.service';

/** Routine runs: a completed run saved as a scripted planner. */
@Module({
  imports: [RunStateModule, PlanningModule, CatalogModule],
  controllers: [RoutinesController],
  providers: [RoutinesService],
})
export class RoutinesModule {}
