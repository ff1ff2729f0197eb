import { Module } from '@nestjs/common';
import { ApprovalsApiModule } from '../computer-use/approvals-api/approvals-api.module';
import { AuthModule } from '../auth/auth.module';
import { RunStateModule } from '../computer-use/runs/run-state.module';
import { SettingsModule } from '../computer-use/settings/settings.module';
import { SecretsModule } from '../secrets/secrets.module';
import { ChatDecisions } from './chat-decisions.service';
import { ChatEndpointsController } from './chat-endpoints.controller';
import { ChatLinksController } from './chat-links.controller';
import { ChatLinksRepository } from './chat-links.repository';
import { ChatLinks } from './chat-links.service';
import { ChatRequestsRepository } from './chat-requests.repository';
import { SlackActions } from './slack-actions.service';
import { TeamsBot } from './teams-bot.service';
import { TeamsTokens } from './teams-tokens.service';

/**
 * Deciding in Slack and Teams (docs/notifications.md): the endpoints their buttons reach, the
 * links of chat accounts to people, and the one path a chat decision takes (ChatDecisions).
 */
@Module({
  imports: [ApprovalsApiModule, AuthModule, RunStateModule, SettingsModule, SecretsModule],
  controllers: [ChatEndpointsController, ChatLinksController],
  providers: [
    ChatDecisions,
    ChatLinks,
    ChatLinksRepository,
    ChatRequestsRepository,
    SlackActions,
    TeamsBot,
    TeamsTokens,
  ],
})
export class ChatModule {}
