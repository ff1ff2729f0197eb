/**
 * What a channel of an agent's notifications is: notifications send to it, and an agent's config
 * (computer-use/settings) lists its channels in these words. Imports nothing, so both can use it.
 */

export const NOTIFY_KINDS = ['webhook', 'slack', 'teams', 'email'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

/**
 * One channel of an agent's notifications. Secrets are named by variable: a webhook's signing
 * secret (`secret_env`), and a Slack or Teams incoming-webhook URL as a whole (`url_env`), since
 * whoever holds that URL may post. Each may go only to an origin the operator granted (docs/screen-host.md).
 */
export type NotifyChannel =
  | { kind: 'webhook'; url: string; secret_env: string }
  /** `signing_secret_env`: the Slack app's signing secret; set, its messages carry buttons. */
  | { kind: 'slack'; url_env: string; signing_secret_env?: string }
  /** `bot_app_id`: the Teams bot's app id; set, its cards carry buttons (Action.Execute). */
  | { kind: 'teams'; url_env: string; bot_app_id?: string }
  | { kind: 'email'; to: string[] };
