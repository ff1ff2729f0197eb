import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CONFIG_EXAMPLES } from './dto/config-examples';
import { schemaRef } from '../../common/api-schema';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { ListQueryDto } from '../../common/list-query.dto';
import { ComputerUseConfigDto } from './dto/computer-use-config.dto';
import { SettingsService } from './settings.service';

@ApiTags('computer-use admin')
@Controller('api/admin/computer-use')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  /** The config in force: `{version, updated_by, updated_at, notices, enabled, agents}` (version 0: never set). */
  @Get()
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: 'Read the computer-use config' })
  @ApiOkResponse({ schema: schemaRef('ComputerUseConfig') })
  get(@CurrentCaller() caller: Caller) {
    return this.settings.view(caller.tenant);
  }

  /**
   * Replaces the config; every PUT is a new version. The body is checked by parse-config.ts rather
   * than the global pipe, because agents are a map by name and every refusal must name its path.
   */
  @Put()
  @Permissions('computer_use.admin')
  @ApiBody({ type: ComputerUseConfigDto, examples: CONFIG_EXAMPLES })
  @ApiOkResponse({
    description: 'the new config, as GET answers it',
    schema: schemaRef('ComputerUseConfig'),
  })
  @ApiOperation({ summary: 'Replace the computer-use config' })
  @ApiConflictResponse({
    description: '`version` is not the one in force: another change came first',
  })
  put(@CurrentCaller() caller: Caller, @Body() body: unknown) {
    return this.settings.replace(caller, body);
  }

  /** Every version, newest first: `{items: [{version, created_by, created_at, config}], next_cursor}`. */
  @Get('versions')
  @Permissions('computer_use.admin')
  @ApiOperation({ summary: 'List the config versions' })
  @ApiOkResponse({ schema: schemaRef('ComputerUseConfigVersionPage') })
  versions(@CurrentCaller() caller: Caller, @Query() query: ListQueryDto) {
    return this.settings.versions(caller.tenant, query.limit, query.cursor);
  }
}
