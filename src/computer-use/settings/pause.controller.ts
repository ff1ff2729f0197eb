import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../../common/api-schema';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { PauseDto } from './dto/pause.dto';
import { SettingsService } from './settings.service';

@ApiTags('computer-use admin')
@Controller('api/admin/pause')
export class PauseController {
  constructor(private readonly settings: SettingsService) {}

  /** `{paused, reason, updated_by, updated_at}` of the caller's tenant. */
  @Get()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: "Read the tenant's pause" })
  @ApiOkResponse({ schema: schemaRef('Pause') })
  get(@CurrentCaller() caller: Caller) {
    return this.settings.pauseView(caller.tenant);
  }

  /**
   * Pauses (with a reason) or resumes every agent of the tenant: runs going stop `killed` before
   * their next step or send, queued runs wait.
   */
  @Put()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: 'Pause or resume every agent of the tenant' })
  @ApiBody({
    type: PauseDto,
    examples: {
      pause: { value: { paused: true, reason: 'SAP maintenance window until 18:00' } },
      resume: { value: { paused: false } },
    },
  })
  @ApiOkResponse({ schema: schemaRef('Pause') })
  put(@CurrentCaller() caller: Caller, @Body() body: PauseDto) {
    return this.settings.setPause(caller, body);
  }
}
