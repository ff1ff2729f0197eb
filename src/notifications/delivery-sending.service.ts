import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { smtpDestination } from '../destinations/destination-origin';
import { Destinations } from '../destinations/destinations.service';
import { deploymentSecret, SecretGrants, SecretRefused } from '../secrets/secret-grants.service';
import { emailContent } from './channel-payloads';
import type { DeliveryToSend, SendOutcome } from './channels/channel-kind';
import { DeliveriesRepository } from './deliveries.repository';
import type { Delivery } from './delivery.entity';
import { deliveryMessageId, EmailError, sendEmail } from './email-sender';
import { PostError, postJson } from './http-post';
import { notifyCa } from './notify-ca';
import { channelKind } from './notify-channel';

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
 * destinations include the deployment's SMTP server; the payload made by the channel's kind
 * (notify-channel.ts), one POST or one mail within NOTIFY_TIMEOUT_MS, and the outcome recorded. Throws DeliveryRetry to have the queue try again.
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
    const outcome = await this.send(delivery).catch((error: unknown): SendOutcome => ({
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

  private async send(d: Delivery): Promise<SendOutcome> {
    try {
      // Awaited here, so that a secret refused is recorded as the try's outcome.
      return await channelKind(d.channel.kind).send(d.channel, d, {
        grants: this.grants,
        post: (url, body, headers) => this.post(url, body, headers),
        mail: (to, delivery) => this.mail(to, delivery),
      });
    } catch (error) {
      if (error instanceof SecretRefused) {
        return error.reason === 'not_granted'
          ? { kind: 'not_granted', error: `not_granted: ${error.message}` }
          : { kind: 'failed', error: `${error.reason}: ${error.message}` };
      }
      throw error;
    }
  }

  private async post(
    url: string,
    body: string,
    headers: Record<string, string>,
  ): Promise<SendOutcome> {
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

  private async mail(to: string[], d: DeliveryToSend): Promise<SendOutcome> {
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
