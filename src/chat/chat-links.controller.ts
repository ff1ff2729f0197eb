import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { Permissions } from '../auth/permissions.decorator';
import { schemaRef } from '../common/api-schema';
import { ChatLinks } from './chat-links.service';
import { LinkCodeDto } from './dto/link-code.dto';

/** A person's chat accounts (docs/approver-guide.md): linked once, while signed in. */
@ApiTags('chat')
@Controller('api/chat/links')
@Permissions('agents.approve')
export class ChatLinksController {
  constructor(private readonly links: ChatLinks) {}

  @Get()
  @ApiOperation({ summary: 'List the chat accounts linked to you' })
  @ApiOkResponse({ schema: schemaRef('ChatLinkList') })
  list(@CurrentCaller() caller: Caller) {
    return this.links.list(caller);
  }

  @Post('preview')
  @HttpCode(200)
  @ApiOperation({ summary: 'Read which chat account a link code would link to you' })
  @ApiOkResponse({ schema: schemaRef('ChatLinkCode') })
  @ApiNotFoundResponse({ description: 'no such code: used, expired, or another tenant’s' })
  preview(@CurrentCaller() caller: Caller, @Body() body: LinkCodeDto) {
    return this.links.preview(caller, body.code);
  }

  @Post()
  @ApiOperation({ summary: 'Link the chat account that got this code to you' })
  @ApiCreatedResponse({ schema: schemaRef('ChatLink') })
  @ApiNotFoundResponse({ description: 'no such code: used, expired, or another tenant’s' })
  link(@CurrentCaller() caller: Caller, @Body() body: LinkCodeDto) {
    return this.links.link(caller, body.code);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Unlink one of your chat accounts' })
  @ApiNoContentResponse({
    description: 'unlinked: its presses stand for nobody until linked again',
  })
  async unlink(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseUUIDPipe) id: string,
  ): Promise<void> {
    await this.links.unlink(caller, id);
  }
}
