import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public } from '../auth/permissions.decorator';
import { schemaRef } from '../common/api-schema';
import { SLACK_ACTIONS_PATH } from '../http/raw-form-routes';
import { SLACK_SIGNATURE_HEADER, SLACK_TIMESTAMP_HEADER } from './slack-signature';
import { SlackActions } from './slack-actions.service';
import { TeamsBot } from './teams-bot.service';

/**
 * Where Slack and Teams send the press of a message's button (docs/notifications.md). Public: no
 * Warden token; what proves the request is Slack's signature, or the Bot Framework's token.
 */
@ApiTags('chat')
@Controller()
export class ChatEndpointsController {
  constructor(
    private readonly slack: SlackActions,
    private readonly teams: TeamsBot,
  ) {}

  @Post(SLACK_ACTIONS_PATH)
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: "Slack's interactivity request: the press of Approve or Reject (signed by Slack)",
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: record({ payload: { type: 'string', description: 'the block_actions event as JSON' } }),
  })
  @ApiOkResponse({ schema: schemaRef('SlackActionReply') })
  @ApiUnauthorizedResponse({
    description:
      'no valid Slack signature for the approval (unsigned, forged or older than 5 minutes)',
  })
  slackAction(
    @Body() raw: Buffer,
    @Headers(SLACK_SIGNATURE_HEADER) signature: string | undefined,
    @Headers(SLACK_TIMESTAMP_HEADER) timestamp: string | undefined,
  ) {
    return this.slack.handle(raw, { signature, timestamp });
  }

  @Post('api/chat/teams/messages')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "The Teams bot's endpoint: the press of a card's Approve or Reject (Action.Execute, a Bot Framework token)",
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiOkResponse({ schema: schemaRef('TeamsInvokeResponse') })
  @ApiUnauthorizedResponse({
    description: 'no valid Bot Framework token for a bot of the approval’s agent',
  })
  teamsMessage(@Body() body: object, @Headers('authorization') authorization: string | undefined) {
    return this.teams.handle(body, authorization);
  }
}

function record(properties: Record<string, object>) {
  return { type: 'object' as const, required: Object.keys(properties), properties };
}
