import type { ChannelKind } from './channels/channel-kind';
import { EMAIL } from './channels/email';
import { SLACK } from './channels/slack';
import { TEAMS } from './channels/teams';
import { WEBHOOK } from './channels/webhook';

/**
 * The kinds of channel an agent's notifications go to, each with all that differs between kinds
 * (channels/channel-kind.ts): how an agent's config reads it (computer-use/settings lists an
 * agent's channels in these words), how a delivery is sent to it and how it is shown. A new kind is
 * a file under channels/ and one line here; the order is the one OpenAPI and the messages list.
 * Secrets are named by variable, and each may go only to an origin the operator granted
 * (docs/screen-host.md).
 */
const CHANNEL_KINDS = kindsTable({
  webhook: WEBHOOK,
  slack: SLACK,
  teams: TEAMS,
  email: EMAIL,
});

export type NotifyKind = keyof typeof CHANNEL_KINDS;

/** One channel of an agent's notifications, of one of the kinds above. */
export type NotifyChannel = {
  [K in NotifyKind]: (typeof CHANNEL_KINDS)[K] extends ChannelKind<infer C> ? C : never;
}[NotifyKind];

export const NOTIFY_KINDS = Object.keys(CHANNEL_KINDS) as readonly NotifyKind[];

/** What the channel's kind does: its reading, its sending and its showing. */
export function channelKind<K extends NotifyKind>(
  kind: K,
): ChannelKind<Extract<NotifyChannel, { kind: K }>> {
  // Sound: kindsTable holds each entry to channels of its own key's kind.
  return CHANNEL_KINDS[kind] as unknown as ChannelKind<Extract<NotifyChannel, { kind: K }>>;
}

/** The table as written, each entry held to reading channels of the kind it is listed under. */
function kindsTable<T extends { [K in keyof T]: ChannelKind<{ kind: K & string }> }>(table: T): T {
  return table;
}
