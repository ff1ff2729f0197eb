import { Module } from '@nestjs/common';
import { QueueModule } from '../../queue/queue.module';
import { ScreensModule } from '../screens/screens.module';
import { PlannerWorkRepository } from './planner-work.repository';
import { PlannerWork } from './planner-work.service';
import { RemoteFamiliesModule } from './remote-families.module';
import { RemotePlanners } from './remote-planners.service';

/**
 * Remote planners (docs/models.md): the planner the engine asks (RemotePlanners), the steps waiting
 * for a worker's decision, and the worker API's service.
 */
@Module({
  imports: [RemoteFamiliesModule, QueueModule, ScreensModule],
  providers: [RemotePlanners, PlannerWorkRepository, PlannerWork],
  exports: [RemotePlanners, PlannerWork, PlannerWorkRepository, RemoteFamiliesModule],
})
export class RemoteModule {}
