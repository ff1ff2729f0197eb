import { Module } from '@nestjs/common';
import { ModelsModule } from '../../models/models.module';
import { PlannersController } from './planners.controller';
import { PlannersService } from './planners.service';

/** Planners (DESIGN §8): the scripted planners' API and `PlannersService.plannerFor` for the engine. */
@Module({
  imports: [ModelsModule],
  controllers: [PlannersController],
  providers: [PlannersService],
  exports: [PlannersService],
})
export class PlanningModule {}
