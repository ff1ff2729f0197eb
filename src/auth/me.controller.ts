import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Caller } from './caller';
import { CurrentCaller } from './current-caller.decorator';
import { PERMISSIONS } from './permission';
import { Permissions } from './permissions.decorator';

@ApiTags('auth')
@Controller('api/me')
export class MeController {
  /** Who the token belongs to: the console shows it and shows only what the permissions allow. */
  @Get()
  @Permissions(...PERMISSIONS)
  me(@CurrentCaller() caller: Caller) {
    return {
      tenant: caller.tenant,
      subject: caller.subject,
      token_id: caller.tokenId,
      permissions: [...caller.permissions],
    };
  }
}
