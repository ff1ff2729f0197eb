import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../common/api-schema';
import type { AuthRequest } from './permissions.guard';
import type { Caller } from './caller';
import { CurrentCaller } from './current-caller.decorator';
import { SignedIn } from './permissions.decorator';
import { SubjectTagsRepository } from './subject-tags.repository';

@ApiTags('auth')
@Controller('api/me')
export class MeController {
  constructor(private readonly subjectTags: SubjectTagsRepository) {}

  /**
   * Who is calling: the console shows it and shows only what the permissions allow. A console
   * session also gets its CSRF token here (only the console's own script can read this answer),
   * to send as X-Warden-CSRF with every change, and the person's groups. `tags`: the caller's
   * planner tags, which only the deployment operator sets (docs/models.md).
   */
  @Get()
  @SignedIn()
  @ApiOperation({ summary: 'Who is calling' })
  @ApiOkResponse({ schema: schemaRef('Me') })
  async me(@CurrentCaller() caller: Caller, @Req() request: AuthRequest) {
    const me = {
      tenant: caller.tenant,
      subject: caller.subject,
      token_id: caller.tokenId,
      permissions: [...caller.permissions],
      tags: await this.subjectTags.tags(caller.tenant, caller.subject),
    };
    if (!request.wardenSession) return me;
    return {
      ...me,
      session: { csrf_token: request.wardenSession.csrfToken, groups: [...caller.groups] },
    };
  }
}
