import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../../common/api-schema';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { notFound } from '../../common/domain-error';
import { DoctorService } from './doctor.service';
import { SettingsService } from '../settings/settings.service';

@ApiTags('computer-use admin')
@Controller('api/admin/agents/:name/doctor')
export class DoctorController {
  constructor(
    private readonly settings: SettingsService,
    private readonly doctor: DoctorService,
  ) {}

  /**
   * Checks the agent's screen host without acting on it: reachable, TLS, token, PNG, sizes,
   * outline, idempotency, frame precondition. Each failed check says what to do next.
   */
  @Get()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: "Check an agent's screen host" })
  @ApiOkResponse({ schema: schemaRef('DoctorReport') })
  async check(@CurrentCaller() caller: Caller, @Param('name') name: string) {
    const agent = await this.settings.agent(caller.tenant, name);
    if (!agent) throw notFound(`no agent "${name}" in this tenant's computer-use config`);
    return { agent: name, ...(await this.doctor.check(caller.tenant, agent)) };
  }
}
