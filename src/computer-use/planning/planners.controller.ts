import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { schemaRef } from '../../common/api-schema';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { ListQueryDto } from '../../common/list-query.dto';
import { CreateScriptedPlannerDto } from './dto/create-scripted-planner.dto';
import { UpdateScriptedPlannerDto } from './dto/update-scripted-planner.dto';
import { PlannersService } from './planners.service';

const ID = { name: 'id', example: 'scripted-3f0c9a52-7d1e-4b6a-9c2f-5e8d7a1b4c30' };

@ApiTags('planners')
@Controller('api/planners')
@Permissions('computer_use.admin')
export class PlannersController {
  constructor(private readonly planners: PlannersService) {}

  /** A new scripted planner; 400 names the step and field of the first problem in the script. */
  @Post('scripted')
  @ApiOperation({ summary: 'Create a scripted planner' })
  @ApiCreatedResponse({ schema: schemaRef('ScriptedPlannerAnswer') })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateScriptedPlannerDto) {
    return { planner: await this.planners.create(caller, body.name, body.script) };
  }

  /** The tenant's planners, oldest first, without their scripts. */
  @Get()
  @ApiOperation({ summary: "List the tenant's scripted planners" })
  @ApiOkResponse({ schema: schemaRef('ScriptedPlannerPage') })
  list(@CurrentCaller() caller: Caller, @Query() query: ListQueryDto) {
    return this.planners.list(caller.tenant, query.limit, query.cursor);
  }

  @Get(':id')
  @ApiParam(ID)
  @ApiOperation({ summary: 'Read a scripted planner with its script' })
  @ApiOkResponse({ schema: schemaRef('ScriptedPlannerAnswer') })
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return { planner: await this.planners.get(caller.tenant, id) };
  }

  @Put(':id')
  @ApiParam(ID)
  @ApiOperation({ summary: 'Change a scripted planner' })
  @ApiOkResponse({ schema: schemaRef('ScriptedPlannerAnswer') })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: UpdateScriptedPlannerDto,
  ) {
    return { planner: await this.planners.update(caller, id, body) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiParam(ID)
  @ApiNoContentResponse({ description: 'deleted; from now on the planner is 404' })
  @ApiOperation({ summary: 'Delete a scripted planner' })
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.planners.remove(caller, id);
  }
}
