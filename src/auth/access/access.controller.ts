import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../../common/api-schema';
import type { Caller } from '../caller';
import { CurrentCaller } from '../current-caller.decorator';
import { Permissions } from '../permissions.decorator';
import { AccessService } from './access.service';
import { AccessDto } from './dto/access.dto';

@ApiTags('access')
@Controller('api/admin/access')
export class AccessController {
  constructor(private readonly access: AccessService) {}

  /** `{groups: {NAME: [permissions]}}`: the tenant's mapping of the identity provider's groups. */
  @Get()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: "Read the tenant's group mapping" })
  @ApiOkResponse({ schema: schemaRef('Access') })
  get(@CurrentCaller() caller: Caller) {
    return this.access.view(caller.tenant);
  }

  /** Replaces the mapping; people's permissions follow on their next request. Audited. */
  @Put()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: "Replace the tenant's group mapping" })
  @ApiOkResponse({ schema: schemaRef('Access') })
  put(@CurrentCaller() caller: Caller, @Body() body: AccessDto) {
    return this.access.replace(caller, body.groups);
  }
}
