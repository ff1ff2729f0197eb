import { Module } from '@nestjs/common';
import { PlannersController } from './planners.controller';
import { PlanningModule } from './planning.module';

/** The scripted planners' API. */
@Module({ imports: [PlanningModule], controllers: [PlannersController] })
export class PlanningApiModule {}
