import { teamsPayload } from '../channel-payloads';
import type { ChannelKind } from './channel-kind';
import { envName } from './read-fields';

/**
 * A Teams incoming webhook (or workflow): its URL as a whole is the secret (`url_env`).
 * `bot_app_id`: the Teams bot's app id; set, its cards carry buttons (Action.Execute).
 */
export interface TeamsChannel {
  kind: 'teams';
  url_env: string;
  bot_app_id?: string;
}

export const TEAMS: ChannelKind<TeamsChannel> = {
  fields: ['kind', 'url_env', 'bot_app_id'],

  read(raw, path, problems) {
    const urlEnv = envName(raw.url_env, `${path}.url_env`, 'url_env', problems);
    const botAppId =
      raw.bot_app_id === undefined || raw.bot_app_id === null
        ? undefined
        : appId(raw.bot_app_id, `${path}.bot_app_id`, problems);
    if (!urlEnv) return null;
    return botAppId
      ? { kind: 'teams', url_env: urlEnv, bot_app_id: botAppId }
      : { kind: 'teams', url_env: urlEnv };
  },

  async send(channel, d, { grants, post }) {
    const secret = await grants.releaseDestination({
      tenant: d.tenant,
      envName: channel.url_env,
      what: 'the Teams webhook URL',
    });
    // A channel set up to take decisions (docs/notifications.md) shows the buttons.
    const payload = teamsPayload(d.message, { decide: channel.bot_app_id !== undefined });
    return post(secret.value, JSON.stringify(payload), {});
  },

  shownTo: (channel) => `$${channel.url_env}`,
};

/** A bot's Microsoft app id: a GUID as the Azure bot registration shows it. */
const APP_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function appId(raw: unknown, path: string, problems: string[]): string | null {
  if (typeof raw !== 'string' || !APP_ID.test(raw)) {
    problems.push(
      `${path} must be the bot's Microsoft app id, a GUID like 00000000-0000-0000-0000-000000000000`,
    );
    return null;
  }
  return raw.toLowerCase();
}
