import { Body, Controller, Param, ParseUUIDPipe, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../../common/api-schema';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { LegalHoldDto } from './dto/legal-hold.dto';
import { RetentionService } from './retention.service';

@ApiTags('runs')
@Controller('api/computer-use/runs')
export class LegalHoldController {
  constructor(private readonly retention: RetentionService) {}

  /**
   * Keeps the run's screens past the tenant's retention (held) or lets retention take them (lifting
   * a hold is a weakening: the service checks governance.weaken and the reason).
   */
  @Put(':id/legal-hold')
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: "Hold a run's screens past retention, or lift the hold" })
  @ApiOkResponse({ schema: schemaRef('LegalHold') })
  put(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: LegalHoldDto,
  ) {
    return this.retention.setLegalHold(caller, id, body.held, body.reason);
  }
}
