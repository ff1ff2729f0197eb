import { Module } from '@nestjs/common';
import { PlannerWorkController } from './planner-work.controller';
import { RemoteModule } from './remote.module';

/** The worker API of remote planners: `/api/planner-work`. */
@Module({ imports: [RemoteModule], controllers: [PlannerWorkController] })
export class RemoteApiModule {}
