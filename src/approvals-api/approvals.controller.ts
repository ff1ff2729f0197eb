import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { Permissions } from '../auth/permissions.decorator';
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
  list(@CurrentCaller() caller: Caller, @Query() query: ListApprovalsDto) {
    return this.approvals.list(caller, query);
  }

  @Get(':id')
  @Permissions('agents.approve')
  get(@CurrentCaller() caller: Caller, @Param('id', ParseUUIDPipe) id: string) {
    return this.approvals.get(caller, id);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Permissions('agents.approve')
  approve(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: DecideDto,
  ) {
    return this.approvals.approve(caller, id, body.comment);
  }

  @Post(':id/reject')
  @HttpCode(200)
  @Permissions('agents.approve')
  reject(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: DecideDto,
  ) {
    return this.approvals.reject(caller, id, body.comment);
  }
}
