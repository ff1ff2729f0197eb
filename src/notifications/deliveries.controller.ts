import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../common/api-schema';
import type { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { Permissions } from '../auth/permissions.decorator';
import { DeliveriesService } from './deliveries.service';
import { ListDeliveriesDto } from './dto/list-deliveries.dto';

@ApiTags('computer-use admin')
@Controller('api/admin/deliveries')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  /**
   * Notification deliveries of the tenant, newest first: `{items: [{id, agent, run_id, event,
   * channel: {kind, to}, status, attempts, last_error, …}], next_cursor}` (docs/notifications.md).
   */
  @Get()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: 'List notification deliveries' })
  @ApiOkResponse({ schema: schemaRef('DeliveryPage') })
  list(@CurrentCaller() caller: Caller, @Query() query: ListDeliveriesDto) {
    return this.deliveries.list(caller, query);
  }
}
