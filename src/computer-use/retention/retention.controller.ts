import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../../common/api-schema';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { RetentionDto } from './dto/retention.dto';
import { RetentionService } from './retention.service';

@ApiTags('computer-use admin')
@Controller('api/admin/retention')
export class RetentionController {
  constructor(private readonly retention: RetentionService) {}

  /** `{retention_days, default, updated_by, updated_at}` of the caller's tenant. */
  @Get()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: 'Read the screen retention' })
  @ApiOkResponse({ schema: schemaRef('Retention') })
  get(@CurrentCaller() caller: Caller) {
    return this.retention.view(caller.tenant);
  }

  /** Sets how long screens are kept after their last use: 180 to 3650 days; shorter is a weakening. */
  @Put()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: 'Set the screen retention' })
  @ApiOkResponse({ schema: schemaRef('Retention') })
  put(@CurrentCaller() caller: Caller, @Body() body: RetentionDto) {
    return this.retention.set(caller, body.retention_days, body.reason);
  }
}
