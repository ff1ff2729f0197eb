import { Body, Controller, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { schemaRef } from '../../common/api-schema';
import { SaveScriptDto } from './dto/save-script.dto';
import { RoutinesService } from './routines.service';

@ApiTags('planners')
@Controller('api/computer-use/runs')
export class RoutinesController {
  constructor(private readonly routines: RoutinesService) {}

  /**
   * Saves a completed run as a scripted planner: its sent actions as steps aimed at the elements
   * they hit, each waiting for the screen it was sent on; typed text named as parameters.
   */
  @Post(':id/script')
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: 'Save a completed run as a scripted planner (a routine)' })
  @ApiCreatedResponse({ schema: schemaRef('ScriptedPlannerAnswer') })
  @ApiNotFoundResponse({ description: 'no run of that id in the tenant' })
  @ApiConflictResponse({
    description: 'the run is not completed, or the tenant has its most scripted planners',
  })
  async save(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: SaveScriptDto,
  ) {
    return { planner: await this.routines.saveRun(caller, id, body) };
  }
}
