import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../common/api-schema';
import type { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { Permissions } from '../auth/permissions.decorator';
import { AuditSinksService } from './audit-sinks.service';
import { AuditSinksDto } from './dto/audit-sinks.dto';

@ApiTags('computer-use admin')
@Controller('api/admin/audit-sinks')
export class AuditSinksController {
  constructor(private readonly sinks: AuditSinksService) {}

  /**
   * The tenant's audit sinks, each with its delivery `status`: `{delivered_seq, head_seq,
   * lag_events, lag_seconds, last_delivered_at, last_error, last_error_at, next_try_at,
   * missing_grant}` (the operator's command that grants what the sink lacks, or null).
   */
  @Get()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: "Read the tenant's audit sinks and their delivery" })
  @ApiOkResponse({ schema: schemaRef('AuditSinks') })
  get(@CurrentCaller() caller: Caller) {
    return this.sinks.view(caller.tenant);
  }

  /**
   * Replaces the tenant's sinks. Checked by parse-sinks.ts rather than the global pipe, so every
   * refusal names its path; `status` (what GET adds) is accepted and ignored.
   */
  @Put()
  @Permissions('computer_use.admin')
  @ApiBody({ type: AuditSinksDto })
  @ApiOkResponse({ description: 'the sinks, as GET answers them', schema: schemaRef('AuditSinks') })
  @ApiOperation({ summary: "Replace the tenant's audit sinks" })
  put(@CurrentCaller() caller: Caller, @Body() body: unknown) {
    return this.sinks.replace(caller, body);
  }
}
