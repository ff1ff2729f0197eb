import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { schemaRef } from '../../common/api-schema';
import {
  AnswerPlannerWorkDto,
  ClaimPlannerWorkDto,
  ListPlannerWorkDto,
} from './dto/planner-work.dto';
import { PlannerWork } from './planner-work.service';

const ID = { name: 'id', example: '0d6f3c1e-2b7a-4c59-9e8d-1a2b3c4d5e6f' };

/** The worker API of remote planners (docs/planners.md "Remote planners"). */
@ApiTags('planner-work')
@Controller('api/planner-work')
@Permissions('planners.serve')
export class PlannerWorkController {
  constructor(private readonly work: PlannerWork) {}

  /** The tenant's waiting steps of these families; asking is the worker's heartbeat. */
  @Get()
  @ApiOperation({ summary: "List waiting steps of the token's families (the worker's heartbeat)" })
  @ApiOkResponse({ schema: schemaRef('PlannerWorkPage') })
  list(@CurrentCaller() caller: Caller, @Query() query: ListPlannerWorkDto) {
    return this.work.list(caller, query.families, query.worker);
  }

  /** Claims a waiting step; one claim wins (200, with the input), every other is 409. */
  @Post(':id/claim')
  @HttpCode(200)
  @ApiParam(ID)
  @ApiOperation({ summary: 'Claim a waiting step: the winner gets its published input' })
  @ApiOkResponse({ schema: schemaRef('PlannerWorkClaimed') })
  @ApiNotFoundResponse({ description: "no such work of the token's tenant and families" })
  @ApiConflictResponse({
    description: 'another claim won, or the step is past its deadline or its run ended',
  })
  async claim(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: ClaimPlannerWorkDto,
  ) {
    return { work: await this.work.claim(caller, id, body.worker) };
  }

  /** The claimer's decision or error, once; a malformed decision is 400 naming the field. */
  @Post(':id/answer')
  @HttpCode(200)
  @ApiParam(ID)
  @ApiOperation({ summary: 'Answer a claimed step with a decision (one action) or an error' })
  @ApiOkResponse({ schema: schemaRef('PlannerWorkAnswered') })
  @ApiNotFoundResponse({ description: "no such work of the token's tenant and families" })
  @ApiConflictResponse({
    description:
      'not claimed by this worker and token, answered already, or past its deadline or its run ended',
  })
  async answer(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: AnswerPlannerWorkDto,
  ) {
    return { work: await this.work.answer(caller, id, body) };
  }
}
