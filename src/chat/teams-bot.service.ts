import { Injectable } from '@nestjs/common';
import { DomainError, invalid } from '../common/domain-error';
import { sha256Hex } from '../common/sha256';
import { AppConfig } from '../config/app-config';
import { SettingsService } from '../computer-use/settings/settings.service';
import { consoleBaseUrl } from '../notifications/console-base-url';
import { ChatDecisions } from './chat-decisions.service';
import { teamsOutcomeCard } from './chat-replies';
import { readTeamsPress } from './teams-activity';
import { TeamsTokens } from './teams-tokens.service';

/** The answer to an `adaptiveCard/action` invoke: the card the presser sees now. */
export interface TeamsInvokeResponse {
  statusCode: 200;
  type: 'application/vnd.microsoft.card.adaptive';
  value: Record<string, unknown>;
}

/**
 * Warden as a Teams bot's endpoint (docs/notifications.md): the press of a card's Approve or
 * Reject (Action.Execute), its bearer token verified (TeamsTokens) for one of the approval's
 * agent's bots (`bot_app_id`), decided by ChatDecisions, answered with the updated card.
 */
@Injectable()
export class TeamsBot {
  constructor(
    private readonly decisions: ChatDecisions,
    private readonly tokens: TeamsTokens,
    private readonly settings: SettingsService,
    private readonly config: AppConfig,
  ) {}

  async handle(body: unknown, authorization: string | undefined): Promise<TeamsInvokeResponse> {
    const press = readTeamsPress(body);
    if ('problem' in press) throw invalid(`not a press of Warden’s buttons: ${press.problem}`);
    const approval = await this.decisions.approvalOf(press.action);
    const verdict = approval
      ? await this.tokens.verify(authorization, {
          appIds: await this.botAppIds(approval.tenant, approval.agent),
          channelId: press.channelId,
          serviceUrl: press.serviceUrl,
        })
      : { ok: false as const, reason: 'no such approval' };
    if (!verdict.ok) {
      if (approval) await this.decisions.refuseUnverified(approval.tenant, press, verdict.reason);
      throw new DomainError(
        'unauthenticated',
        'the request carries no valid Bot Framework token for this approval: nothing was decided',
      );
    }
    const outcome = await this.decisions.decide(
      approval!,
      press,
      sha256Hex(`teams:${press.conversationId ?? ''}:${press.activityId}`),
    );
    const link = `${consoleBaseUrl(this.config)}/console/approvals/${approval!.id}`;
    return {
      statusCode: 200,
      type: 'application/vnd.microsoft.card.adaptive',
      value: teamsOutcomeCard(outcome, link),
    };
  }

  private async botAppIds(tenant: string, agent: string): Promise<string[]> {
    const config = await this.settings.agent(tenant, agent);
    return (config?.notify ?? []).flatMap((channel) =>
      channel.kind === 'teams' && channel.bot_app_id ? [channel.bot_app_id] : [],
    );
  }
}
