import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../../common/api-schema';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { KillSwitchDto } from './dto/kill-switch.dto';
import { SettingsService } from './settings.service';

@ApiTags('computer-use admin')
@Controller('api/admin/agents/:name/kill-switch')
export class KillSwitchController {
  constructor(private readonly settings: SettingsService) {}

  /** `{agent, engaged, reason, updated_by, updated_at}`; an agent not in the config is a 404. */
  @Get()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: "Read an agent's kill switch" })
  @ApiOkResponse({ schema: schemaRef('KillSwitch') })
  get(@CurrentCaller() caller: Caller, @Param('name') name: string) {
    return this.settings.killSwitchView(caller.tenant, name);
  }

  /** Engages (with a reason) or releases the agent's kill switch; checked before every step. */
  @Put()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: "Engage or release an agent's kill switch" })
  @ApiBody({
    type: KillSwitchDto,
    examples: {
      engage: {
        value: { engaged: true, reason: 'INC-2291: wrong dates entered, stop until checked' },
      },
      release: { value: { engaged: false } },
    },
  })
  @ApiOkResponse({ schema: schemaRef('KillSwitch') })
  put(@CurrentCaller() caller: Caller, @Param('name') name: string, @Body() body: KillSwitchDto) {
    return this.settings.setKillSwitch(caller, name, body);
  }
}
