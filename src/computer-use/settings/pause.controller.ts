import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
  get(@CurrentCaller() caller: Caller) {
    return this.settings.pauseView(caller.tenant);
  }

  /**
   * Pauses (with a reason) or resumes every agent of the tenant: runs going stop `killed` before
   * their next step or send, queued runs wait.
   */
  @Put()
  @Permissions('computer_use.admin')
  put(@CurrentCaller() caller: Caller, @Body() body: PauseDto) {
    return this.settings.setPause(caller, body);
  }
}
