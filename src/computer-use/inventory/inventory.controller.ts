import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../../common/api-schema';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { InventoryService } from './inventory.service';

@ApiTags('computer-use admin')
@Controller('api/admin/inventory')
export class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  /**
   * Every agent of the tenant's config in force: `{enabled, config_version, agents: [{agent,
   * system, screen_host, planner, write_approval, last_run, runs_7d, runs_30d, approvals_30d}]}`
   * (docs/api.md, Inventory).
   */
  @Get()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: "List the tenant's agents and how they do" })
  @ApiOkResponse({ schema: schemaRef('Inventory') })
  get(@CurrentCaller() caller: Caller) {
    return this.inventory.view(caller.tenant);
  }
}
