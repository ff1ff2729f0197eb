import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
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
import { CreateScriptedPlannerDto } from '../planning/dto/create-scripted-planner.dto';
import {
  DeleteScriptedPlannerQuery,
  UpdateScriptedPlannerDto,
} from '../planning/dto/update-scripted-planner.dto';
import { checkScript } from '../planning/check-script';
import { PlannersService } from '../planning/planners.service';
import { PlannerCatalog } from './planner-catalog.service';

/**
 * The fallback a valid script names, normalised, for the catalog's rule; nothing for an invalid
 * script, which the service then refuses with 400 naming the problem.
 */
function fallbackIn(script: unknown): unknown {
  const checked = checkScript(script);
  return checked.ok ? checked.script.fallback : undefined;
}

const ID = { name: 'id', example: 'scripted-3f0c9a52-7d1e-4b6a-9c2f-5e8d7a1b4c30' };
const ANY_ID = { name: 'id', example: 'navigator-2026-11-10-normal' };

@ApiTags('planners')
@Controller('api/planners')
@Permissions('computer_use.admin')
export class PlannersController {
  constructor(
    private readonly planners: PlannersService,
    private readonly catalog: PlannerCatalog,
  ) {}

  /**
   * The catalog: `{default, tags, planners}`, every planner this tenant could name, each with
   * `available` and `why` for the caller (docs/models.md).
   */
  @Get()
  @ApiOperation({ summary: 'List the planner catalog, available or not for the caller, and why' })
  @ApiOkResponse({ schema: schemaRef('PlannerCatalog') })
  list(@CurrentCaller() caller: Caller) {
    return this.catalog.list(caller);
  }

  /** A new scripted planner; 400 names the step and field of the first problem in the script. */
  @Post('scripted')
  @ApiOperation({ summary: 'Create a scripted planner' })
  @ApiCreatedResponse({ schema: schemaRef('ScriptedPlannerAnswer') })
  @ApiConflictResponse({ description: 'the tenant has its most scripted planners (100)' })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateScriptedPlannerDto) {
    await this.catalog.checkFallback(caller, fallbackIn(body.script));
    return { planner: await this.planners.create(caller, body.name, body.script) };
  }

  /** The tenant's scripted planners, oldest first, without their scripts. */
  @Get('scripted')
  @ApiOperation({ summary: "List the tenant's scripted planners" })
  @ApiOkResponse({ schema: schemaRef('ScriptedPlannerPage') })
  scripted(@CurrentCaller() caller: Caller, @Query() query: ListQueryDto) {
    return this.planners.list(caller.tenant, query.limit, query.cursor);
  }

  /** One planner of the catalog, as the list has it; a scripted one with its script. */
  @Get(':id')
  @ApiParam(ANY_ID)
  @ApiOperation({ summary: 'Read one planner of the catalog (a scripted one with its script)' })
  @ApiOkResponse({ schema: schemaRef('CatalogPlannerAnswer') })
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return { planner: await this.catalog.get(caller, id) };
  }

  /**
   * New content for a script that an agent whose writes need no approval names is that agent's
   * weakening: 403 without governance.weaken, 400 without `reason` (docs/security.md).
   */
  @Put(':id')
  @ApiParam(ID)
  @ApiOperation({ summary: 'Change a scripted planner' })
  @ApiOkResponse({ schema: schemaRef('ScriptedPlannerAnswer') })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: UpdateScriptedPlannerDto,
  ) {
    await this.catalog.checkFallback(caller, fallbackIn(body.script));
    return { planner: await this.planners.update(caller, id, body) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiParam(ID)
  @ApiNoContentResponse({ description: 'deleted; from now on the planner is 404' })
  @ApiOperation({ summary: 'Delete a scripted planner' })
  async remove(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query() query: DeleteScriptedPlannerQuery,
  ): Promise<void> {
    await this.planners.remove(caller, id, query.reason);
  }
}
