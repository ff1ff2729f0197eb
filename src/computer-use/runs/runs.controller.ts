import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  ParseIntPipe,
  ParseUUIDPipe,
  Post,
  Query,
  Res,
  UseFilters,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiTooManyRequestsResponse,
  ApiCreatedResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { schemaRef } from '../../common/api-schema';
import type { FastifyReply } from 'fastify';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { ListRunsDto } from './dto/list-runs.dto';
import { StartRunDto } from './dto/start-run.dto';
import { RefusedStartFilter } from './refused-start.filter';
import { RunsService } from './runs.service';

@ApiTags('runs')
@Controller('api/computer-use/runs')
export class RunsController {
  constructor(private readonly runs: RunsService) {}

  /**
   * Starts a run (201), or refuses it with the reason (audited `computer_use.refused`); a token
   * without `agents.operate` is refused too, and RefusedStartFilter audits that.
   */
  @Post()
  @Permissions('agents.operate')
  @UseFilters(RefusedStartFilter)
  @ApiOperation({ summary: 'Start a run' })
  @ApiBody({
    type: StartRunDto,
    examples: {
      run: {
        summary: 'A goal for an agent of the config',
        value: {
          agent: 'sap-orders',
          goal: "Change order 4711's requested delivery date to 15.12.2026 and save",
        },
      },
    },
  })
  @ApiCreatedResponse({ schema: schemaRef('Run') })
  @ApiNotFoundResponse({ description: 'no agent of that name in the computer-use config' })
  @ApiConflictResponse({
    description:
      'the agent may not run now: computer use off, kill switch or pause engaged, no usable planner or screen host',
  })
  @ApiTooManyRequestsResponse({
    description:
      'planner_busy: the agent plans with a remote planner and the tenant has 8 steps waiting for remote planners already',
  })
  start(@CurrentCaller() caller: Caller, @Body() body: StartRunDto) {
    return this.runs.start(caller, body);
  }

  @Get()
  @Permissions('agents.operate', 'audit.read')
  @ApiOperation({ summary: 'List runs' })
  @ApiOkResponse({ schema: schemaRef('RunPage') })
  list(@CurrentCaller() caller: Caller, @Query() query: ListRunsDto) {
    return this.runs.list(caller, query);
  }

  @Get(':id')
  @Permissions('agents.operate', 'audit.read')
  @ApiOperation({ summary: 'Read a run with its steps' })
  @ApiOkResponse({ schema: schemaRef('Run') })
  get(@CurrentCaller() caller: Caller, @Param('id', ParseUUIDPipe) id: string) {
    return this.runs.get(caller, id);
  }

  /**
   * The exact PNG the step saw; `ETag` is its SHA-256; 410 once retention deleted it. A PNG whose
   * data does not inflate (a read's screen from a host whose encoder damaged it) is still served as
   * stored, with `X-Screen-Damaged` saying why: a browser may draw such a PNG in part.
   */
  @Get(':id/steps/:n/screen')
  @Permissions('agents.operate', 'agents.approve', 'audit.read')
  @ApiOkResponse({
    description: 'the PNG bytes',
    content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
    headers: {
      'X-Screen-Damaged': {
        description:
          "present when the PNG's compressed data does not inflate: why (the bytes are as the host sent them)",
        schema: { type: 'string' },
      },
    },
  })
  @ApiGoneResponse({ description: "deleted under the tenant's screen retention" })
  @ApiOperation({ summary: 'Download the PNG a step saw' })
  async screen(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseUUIDPipe) id: string,
    @Param('n', ParseIntPipe) n: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    const { png, sha256, damage } = await this.runs.screen(caller, id, n);
    void reply
      .header('Content-Type', 'image/png')
      .header('ETag', `"${sha256}"`)
      .header('Cache-Control', 'private, max-age=31536000, immutable');
    if (damage) void reply.header('X-Screen-Damaged', damage.replace(/[^\x20-\x7e]/g, '?'));
    return png;
  }

  /** Sends the approved held write once, onto the screen the approver saw, or stops `stale_screen`. */
  @Post(':id/resume')
  @HttpCode(200)
  @Permissions('agents.operate')
  @ApiOperation({ summary: 'Send the approved held write and go on' })
  @ApiOkResponse({ schema: schemaRef('Run') })
  @ApiConflictResponse({ description: 'no approved held write to send (the message says why)' })
  resume(@CurrentCaller() caller: Caller, @Param('id', ParseUUIDPipe) id: string) {
    return this.runs.resume(caller, id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Permissions('agents.operate')
  @ApiOperation({ summary: 'Cancel a run' })
  @ApiOkResponse({ schema: schemaRef('Run') })
  @ApiConflictResponse({ description: 'the run has already ended' })
  cancel(@CurrentCaller() caller: Caller, @Param('id', ParseUUIDPipe) id: string) {
    return this.runs.cancel(caller, id);
  }
}
