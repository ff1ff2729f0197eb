import { Module } from '@nestjs/common';
import { RunStateModule } from '../computer-use/runs/run-state.module';
import { RunsModule } from '../computer-use/runs/runs.module';
import { ConsoleApiController } from './console-api.controller';
import { ConsoleAssets } from './console-assets';
import { ConsoleController } from './console.controller';
import { ConsoleService } from './console.service';

/** The approver and auditor console (`/console`): static files, plus the one read it needs. */
@Module({
  imports: [RunsModule, RunStateModule],
  controllers: [ConsoleController, ConsoleApiController],
  providers: [ConsoleAssets, ConsoleService],
})
export class ConsoleModule {}
