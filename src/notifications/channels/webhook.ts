import { destinationOrigin } from '../../destinations/origin';
import { webhookBody } from '../channel-payloads';
import { signWebhook } from '../webhook-signature';
import type { ChannelKind } from './channel-kind';
import { CHANNEL_BOUNDS, envName } from './read-fields';

/**
 * A webhook: the message POSTed as JSON to `url`, signed (HMAC-SHA256) with the secret in
 * `secret_env`, which is released only for the URL's origin (docs/screen-host.md).
 */
export interface WebhookChannel {
  kind: 'webhook';
  url: string;
  secret_env: string;
}

export const WEBHOOK: ChannelKind<WebhookChannel> = {
  fields: ['kind', 'url', 'secret_env'],

  read(raw, path, problems) {
    const url = webhookUrl(raw.url, `${path}.url`, problems);
    const secretEnv = envName(raw.secret_env, `${path}.secret_env`, 'secret_env', problems);
    if (!url || !secretEnv) return null;
    return { kind: 'webhook', url, secret_env: secretEnv };
  },

  async send(channel, d, { grants, post }) {
    const secret = await grants.release({
      tenant: d.tenant,
      envName: channel.secret_env,
      destination: channel.url,
      what: 'the webhook signing secret',
    });
    if (!secret.mayGoTo(channel.url)) return { kind: 'not_granted', error: 'not_granted' };
    const body = webhookBody(d.message, d.id);
    const timestamp = String(Math.floor(Date.now() / 1000));
    return post(channel.url, body, {
      'x-warden-event': d.event,
      'x-warden-delivery': d.id,
      'x-warden-timestamp': timestamp,
      'x-warden-signature': signWebhook(secret.value, timestamp, body),
    });
  },

  shownTo: (channel) => new URL(channel.url).origin,
};

function webhookUrl(raw: unknown, path: string, problems: string[]): string | null {
  if (raw === undefined || raw === null) {
    problems.push(`${path} is required`);
    return null;
  }
  if (typeof raw !== 'string' || raw.length > CHANNEL_BOUNDS.url) {
    problems.push(`${path} must be a URL of at most ${CHANNEL_BOUNDS.url} characters`);
    return null;
  }
  const checked = destinationOrigin(raw);
  if ('problem' in checked) {
    problems.push(`${path}: ${checked.problem}`);
    return null;
  }
  return raw;
}
