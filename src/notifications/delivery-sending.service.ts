import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { smtpDestination } from '../destinations/destination-origin';
import { Destinations } from '../destinations/destinations.service';
import { deploymentSecret, SecretGrants, SecretRefused } from '../secrets/secret-grants.service';
import { emailContent, slackPayload, teamsPayload, webhookBody } from './channel-payloads';
import { DeliveriesRepository } from './deliveries.repository';
import type { Delivery } from './delivery.entity';
import { deliveryMessageId, EmailError, sendEmail } from './email-sender';
import { PostError, postJson } from './http-post';
import { notifyCa } from './notify-ca';
import { signWebhook } from './webhook-signature';

/** How one try ended. */
type Outcome =
  | { kind: 'delivered' }
  | { kind: 'not_granted'; error: string }
  /** Trying again cannot help (a secret unset, a 4xx, no SMTP server configured). */
  | { kind: 'failed'; error: string }
  | { kind: 'retry'; error: string };

/** A try that failed and is left to the queue's backoff. */
export class DeliveryRetry extends Error {
  constructor(readonly error: string) {
    super(`the delivery failed (${error}) and will be tried again`);
    this.name = 'DeliveryRetry';
  }
}

/**
 * Sends one delivery (docs/security.md): its channel's secret released through SecretGrants for the
 * destination's origin (docs/screen-host.md), which admits the origin too; a mail only when the tenant's
 * destinations include the deployment's SMTP server; the payload made, one POST or one mail within
 * NOTIFY_TIMEOUT_MS, and the outcome recorded. Throws DeliveryRetry to have the queue try again.
 */
@Injectable()
export class DeliverySending {
  constructor(
    private readonly config: AppConfig,
    private readonly grants: SecretGrants,
    private readonly deliveries: DeliveriesRepository,
    private readonly destinations: Destinations,
  ) {}

  async deliver(deliveryId: string, lastAttempt: boolean): Promise<void> {
    const delivery = await this.deliveries.startAttempt(deliveryId);
    if (!delivery) return;
    const outcome = await this.send(delivery).catch((error: unknown): Outcome => ({
      kind: 'retry',
      error: error instanceof Error ? error.name : 'error',
    }));
    switch (outcome.kind) {
      case 'delivered':
        await this.deliveries.settle(delivery.id, 'delivered', null);
        return;
      case 'not_granted':
      case 'failed':
        await this.deliveries.settle(delivery.id, outcome.kind, outcome.error);
        return;
      case 'retry':
        if (lastAttempt) {
          await this.deliveries.settle(delivery.id, 'failed', outcome.error);
          return;
        }
        await this.deliveries.noteError(delivery.id, outcome.error);
        throw new DeliveryRetry(outcome.error);
    }
  }

  private async send(d: Delivery): Promise<Outcome> {
    try {
      const channel = d.channel;
      switch (channel.kind) {
        case 'webhook': {
          const secret = await this.grants.release({
            tenant: d.tenant,
            envName: channel.secret_env,
            destination: channel.url,
            what: 'the webhook signing secret',
          });
          if (!secret.mayGoTo(channel.url)) return { kind: 'not_granted', error: 'not_granted' };
          const body = webhookBody(d.message, d.id);
          const timestamp = String(Math.floor(Date.now() / 1000));
          return this.post(channel.url, body, {
            'x-warden-event': d.event,
            'x-warden-delivery': d.id,
            'x-warden-timestamp': timestamp,
            'x-warden-signature': signWebhook(secret.value, timestamp, body),
          });
        }
        case 'slack':
        case 'teams': {
          const secret = await this.grants.releaseDestination({
            tenant: d.tenant,
            envName: channel.url_env,
            what: channel.kind === 'slack' ? 'the Slack webhook URL' : 'the Teams webhook URL',
          });
          // A channel set up to take decisions (docs/notifications.md) shows the buttons.
          const payload =
            channel.kind === 'slack'
              ? slackPayload(d.message, { decide: channel.signing_secret_env !== undefined })
              : teamsPayload(d.message, { decide: channel.bot_app_id !== undefined });
          return this.post(secret.value, JSON.stringify(payload), {});
        }
        case 'email':
          return await this.mail(channel.to, d);
      }
    } catch (error) {
      if (error instanceof SecretRefused) {
        return error.reason === 'not_granted'
          ? { kind: 'not_granted', error: `not_granted: ${error.message}` }
          : { kind: 'failed', error: `${error.reason}: ${error.message}` };
      }
      throw error;
    }
  }

  private async post(url: string, body: string, headers: Record<string, string>): Promise<Outcome> {
    try {
      const status = await postJson(url, body, headers, {
        timeoutMs: this.config.NOTIFY_TIMEOUT_MS,
        ca: notifyCa(this.config.NOTIFY_CA_FILE),
      });
      if (status >= 200 && status < 300) return { kind: 'delivered' };
      // A refusal of the request itself will be refused again; a busy or broken receiver may recover.
      const permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
      return { kind: permanent ? 'failed' : 'retry', error: `HTTP ${status}` };
    } catch (error) {
      if (error instanceof PostError) return { kind: 'retry', error: error.code };
      throw error;
    }
  }

  private async mail(to: string[], d: Delivery): Promise<Outcome> {
    const c = this.config;
    if (!c.SMTP_URL || !c.SMTP_FROM) {
      return { kind: 'failed', error: 'smtp_not_configured: the deployment sets no SMTP_URL' };
    }
    const server = smtpDestination(c.SMTP_URL);
    if ('problem' in server) {
      return {
        kind: 'failed',
        error: "smtp_not_configured: the deployment's SMTP_URL is unusable",
      };
    }
    const refused = await this.destinations.refusal({
      tenant: d.tenant,
      origin: server.origin,
      what: 'e-mail',
      deployment: 'smtp',
    });
    if (refused) return { kind: 'not_granted', error: `not_granted: ${refused.message}` };
    try {
      await sendEmail(
        {
          url: c.SMTP_URL,
          from: c.SMTP_FROM,
          password: deploymentSecret(c.SMTP_PASSWORD_ENV),
          timeoutMs: c.NOTIFY_TIMEOUT_MS,
          ca: notifyCa(c.NOTIFY_CA_FILE),
        },
        to,
        emailContent(d.message),
        deliveryMessageId(d.id, c.SMTP_FROM),
      );
      return { kind: 'delivered' };
    } catch (error) {
      if (!(error instanceof EmailError)) throw error;
      const permanent = /^SMTP 5\d\d$/.test(error.code) || error.code === 'EENVELOPE';
      return { kind: permanent ? 'failed' : 'retry', error: error.code };
    }
  }
}
