import { slackPayload } from '../channel-payloads';
import type { ChannelKind } from './channel-kind';
import { envName, optionalEnvName } from './read-fields';

/**
 * A Slack incoming webhook: its URL as a whole is the secret (`url_env`), since whoever holds it
 * may post. `signing_secret_env`: the Slack app's signing secret; set, its messages carry buttons.
 */
export interface SlackChannel {
  kind: 'slack';
  url_env: string;
  signing_secret_env?: string;
}

export const SLACK: ChannelKind<SlackChannel> = {
  fields: ['kind', 'url_env', 'signing_secret_env'],

  read(raw, path, problems) {
    const urlEnv = envName(raw.url_env, `${path}.url_env`, 'url_env', problems);
    const signing = optionalEnvName(
      raw.signing_secret_env,
      `${path}.signing_secret_env`,
      'signing_secret_env',
      problems,
    );
    if (!urlEnv) return null;
    return signing
      ? { kind: 'slack', url_env: urlEnv, signing_secret_env: signing }
      : { kind: 'slack', url_env: urlEnv };
  },

  async send(channel, d, { grants, post }) {
    const secret = await grants.releaseDestination({
      tenant: d.tenant,
      envName: channel.url_env,
      what: 'the Slack webhook URL',
    });
    // A channel set up to take decisions (docs/notifications.md) shows the buttons.
    const payload = slackPayload(d.message, { decide: channel.signing_secret_env !== undefined });
    return post(secret.value, JSON.stringify(payload), {});
  },

  shownTo: (channel) => `$${channel.url_env}`,
};
