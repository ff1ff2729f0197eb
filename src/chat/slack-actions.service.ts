import { Injectable, Logger } from '@nestjs/common';
import { DomainError, invalid } from '../common/domain-error';
import { sha256Hex } from '../common/sha256';
import { AppConfig } from '../config/app-config';
import { SettingsService } from '../computer-use/settings/settings.service';
import { destinationOrigin } from '../destinations/origin';
import { Destinations } from '../destinations/destinations.service';
import { postJson } from '../notifications/http-post';
import { notifyCa } from '../notifications/notify-ca';
import { SecretGrants, SecretRefused } from '../secrets/secret-grants.service';
import type { ChatOutcome, ChatRefusal } from './chat-decisions.service';
import { ChatDecisions } from './chat-decisions.service';
import { outcomeInWords, slackUpdate } from './chat-replies';
import { verifySlackRequest } from './slack-signature';
import { readSlackPress, type SlackPress } from './slack-payload';

/** What Warden answers Slack's request with (Slack shows the message update, not this). */
export interface SlackReply {
  outcome: 'approved' | 'rejected' | 'refused' | 'ignored';
  refused: ChatRefusal | null;
  text: string;
  /**
   * The message's update through Slack's `response_url`: `sent`; `not_granted` when its origin
   * is not a destination granted for the tenant (the text says so); `none` without a response_url.
   */
  message_update: 'sent' | 'not_granted' | 'none';
}

const WHY_UNVERIFIED = {
  unsigned: 'no Slack signature',
  stale: 'its timestamp is more than five minutes away',
  forged: 'its signature is not one of the agent’s Slack signing secrets',
} as const;

/**
 * Slack's interactivity requests (docs/notifications.md): the press of a message's Approve or
 * Reject, verified with the signing secrets of the approval's agent's Slack channels (each named by
 * `signing_secret_env`, granted for the origin of the channel's webhook URL like any secret),
 * decided by ChatDecisions, and the message updated in place through Slack's `response_url` when
 * its origin is a destination granted for the tenant.
 */
@Injectable()
export class SlackActions {
  private readonly logger = new Logger(SlackActions.name);

  constructor(
    private readonly decisions: ChatDecisions,
    private readonly settings: SettingsService,
    private readonly grants: SecretGrants,
    private readonly destinations: Destinations,
    private readonly config: AppConfig,
  ) {}

  async handle(
    rawBody: unknown,
    headers: { signature?: string; timestamp?: string },
  ): Promise<SlackReply> {
    if (!Buffer.isBuffer(rawBody)) {
      throw invalid('Slack sends interactivity as a form (application/x-www-form-urlencoded)');
    }
    const press = readSlackPress(rawBody);
    if ('ignored' in press) {
      return { outcome: 'ignored', refused: null, text: '', message_update: 'none' };
    }
    if ('problem' in press) throw invalid(`not a press of Warden’s buttons: ${press.problem}`);
    const approval = await this.decisions.approvalOf(press.action);
    const secrets = approval ? await this.signingSecrets(approval.tenant, approval.agent) : [];
    const verdict = verifySlackRequest({
      secrets,
      timestamp: headers.timestamp,
      signature: headers.signature,
      rawBody,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    if (!verdict.ok) {
      if (approval) {
        await this.decisions.refuseUnverified(
          approval.tenant,
          press,
          WHY_UNVERIFIED[verdict.reason],
        );
      }
      throw new DomainError(
        'unauthenticated',
        'the request carries no valid Slack signature for this approval: nothing was decided',
      );
    }
    const outcome = await this.decisions.decide(
      approval!,
      press,
      sha256Hex(`slack:${headers.signature}`),
    );
    const update = await this.updateMessage(approval!.tenant, press, outcome);
    return {
      outcome: 'refused' in outcome ? 'refused' : outcome.decided,
      refused: 'refused' in outcome ? outcome.refused : null,
      text: [outcomeInWords(outcome, 'slack'), update.note].filter(Boolean).join(' '),
      message_update: update.kind,
    };
  }

  /** The signing secrets of the agent's Slack channels that take decisions and may be used. */
  private async signingSecrets(tenant: string, agent: string): Promise<string[]> {
    const config = await this.settings.agent(tenant, agent);
    const secrets: string[] = [];
    for (const channel of config?.notify ?? []) {
      if (channel.kind !== 'slack' || !channel.signing_secret_env) continue;
      try {
        const hook = await this.grants.releaseDestination({
          tenant,
          envName: channel.url_env,
          what: 'the Slack webhook URL',
        });
        const secret = await this.grants.release({
          tenant,
          envName: channel.signing_secret_env,
          destination: hook.origin,
          what: 'the Slack signing secret',
        });
        secrets.push(secret.value);
      } catch (error) {
        if (!(error instanceof SecretRefused)) throw error;
        this.logger.warn(
          { tenant, agent, reason: error.reason, message: error.message },
          'a Slack channel’s signing secret may not be used',
        );
      }
    }
    return secrets;
  }

  /**
   * Posts the update to Slack's `response_url` (not awaited: Slack wants its answer within three
   * seconds), only to a destination granted for the tenant.
   */
  private async updateMessage(
    tenant: string,
    press: SlackPress,
    outcome: ChatOutcome,
  ): Promise<{ kind: SlackReply['message_update']; note: string }> {
    if (!press.responseUrl) return { kind: 'none', note: '' };
    const checked = destinationOrigin(press.responseUrl);
    if ('problem' in checked) return { kind: 'none', note: '' };
    const refused = await this.destinations.refusal({
      tenant,
      origin: checked.origin,
      what: 'the update of the Slack message',
    });
    if (refused) {
      return {
        kind: 'not_granted',
        note: `The Slack message is not updated: ${refused.message}.`,
      };
    }
    postJson(
      press.responseUrl,
      JSON.stringify(slackUpdate(outcome, press.messageBlocks)),
      {},
      {
        timeoutMs: this.config.NOTIFY_TIMEOUT_MS,
        ca: notifyCa(this.config.NOTIFY_CA_FILE),
      },
    ).then(
      (status) => {
        if (status >= 300) this.logger.warn({ tenant, status }, 'Slack refused the message update');
      },
      (error: unknown) =>
        this.logger.warn({ tenant, err: error }, 'the Slack message update failed'),
    );
    return { kind: 'sent', note: '' };
  }
}
