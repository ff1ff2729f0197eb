import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { schemaRef } from '../../common/api-schema';
import { OversightQueryDto } from './dto/oversight-query.dto';
import { SeedTestDto } from './dto/seed-test.dto';
import { OversightService } from './oversight.service';

/** What the console reports of an approval's page (docs/approver-guide.md, oversight). */
@ApiTags('approvals')
@Controller('api/approvals/:id/views')
@Permissions('agents.approve')
export class ApprovalViewsController {
  constructor(private readonly oversight: OversightService) {}

  @Post()
  @ApiOperation({ summary: 'Report an opening of the approval’s page (once per opening)' })
  @ApiCreatedResponse({ schema: schemaRef('ApprovalPageView') })
  open(@CurrentCaller() caller: Caller, @Param('id', ParseUUIDPipe) id: string) {
    return this.oversight.openView(caller, id);
  }

  @Post(':view/changes-seen')
  @ApiOperation({ summary: 'Report that the page’s change list came into view' })
  @ApiOkResponse({ schema: schemaRef('ApprovalPageView') })
  changesSeen(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseUUIDPipe) id: string,
    @Param('view', ParseUUIDPipe) view: string,
  ) {
    return this.oversight.changesSeen(caller, id, view);
  }
}

/** How people decide: totals per approver and agent, and who is flagged. */
@ApiTags('computer-use admin')
@Controller('api/admin/oversight')
@Permissions('computer_use.admin', 'audit.read')
export class OversightController {
  constructor(private readonly oversight: OversightService) {}

  @Get()
  @ApiOperation({ summary: 'Read how approvers decide, and who is flagged' })
  @ApiOkResponse({ schema: schemaRef('OversightReport') })
  report(@CurrentCaller() caller: Caller, @Query() query: OversightQueryDto) {
    return this.oversight.report(caller, query.days);
  }

  /** A known-bad change in the approvers' inboxes, never sent: rejecting it is the right answer. */
  @Post('tests')
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: 'Seed a test approval: a known-bad change, never sent' })
  @ApiCreatedResponse({ schema: schemaRef('OversightTest') })
  seed(@CurrentCaller() caller: Caller, @Body() body: SeedTestDto) {
    return this.oversight.seed(caller, body);
  }
}
