import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../../common/api-schema';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { ApprovalsService } from './approvals.service';
import { DecideDto } from './dto/decide.dto';
import { ListApprovalsDto } from './dto/list-approvals.dto';

@ApiTags('approvals')
@Controller('api/approvals')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  /** Waiting actions of every agent in the tenant, newest last (`?status=` other than pending for history). */
  @Get()
  @Permissions('agents.approve')
  @ApiOperation({ summary: 'List waiting actions' })
  @ApiOkResponse({ schema: schemaRef('ApprovalPage') })
  list(@CurrentCaller() caller: Caller, @Query() query: ListApprovalsDto) {
    return this.approvals.list(caller, query);
  }

  @Get(':id')
  @Permissions('agents.approve')
  @ApiOperation({ summary: 'Read a waiting action and what the caller may do with it' })
  @ApiOkResponse({ schema: schemaRef('ApprovalForYou') })
  get(@CurrentCaller() caller: Caller, @Param('id', ParseUUIDPipe) id: string) {
    return this.approvals.get(caller, id);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Permissions('agents.approve')
  @ApiOperation({ summary: 'Approve a held write' })
  @ApiOkResponse({ schema: schemaRef('Approval') })
  @ApiConflictResponse({ description: 'already decided or expired' })
  approve(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: DecideDto,
  ) {
    return this.approvals.approve(caller, id, { comment: body.comment, viewId: body.view_id });
  }

  @Post(':id/reject')
  @HttpCode(200)
  @Permissions('agents.approve')
  @ApiOperation({ summary: 'Reject a held write' })
  @ApiOkResponse({ schema: schemaRef('Approval') })
  @ApiConflictResponse({ description: 'already decided or expired' })
  reject(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: DecideDto,
  ) {
    return this.approvals.reject(caller, id, { comment: body.comment, viewId: body.view_id });
  }
}
