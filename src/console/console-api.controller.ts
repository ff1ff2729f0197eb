import { Controller, Get, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { Permissions } from '../auth/permissions.decorator';
import { ConsoleService } from './console.service';

@ApiTags('approvals')
@Controller('api/console')
export class ConsoleApiController {
  constructor(private readonly reads: ConsoleService) {}

  /** The run of a waiting action, with its steps, for an approver who may not read runs otherwise. */
  @Get('approvals/:id/run')
  @Permissions('agents.approve')
  runOfApproval(@CurrentCaller() caller: Caller, @Param('id', ParseUUIDPipe) id: string) {
    return this.reads.runOfApproval(caller, id);
  }
}
