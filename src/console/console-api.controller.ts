import { Controller, Get, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../common/api-schema';
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
  @ApiOperation({ summary: "Read a waiting action's run, as its approver" })
  @ApiOkResponse({ schema: schemaRef('Run') })
  runOfApproval(@CurrentCaller() caller: Caller, @Param('id', ParseUUIDPipe) id: string) {
    return this.reads.runOfApproval(caller, id);
  }
}
