import type { SecretGrants } from '../../secrets/secret-grants.service';
import type { NotifyEventKind } from '../notify-event';
import type { NotificationMessage } from '../render-message';

/**
 * What one kind of notification channel is (docs/notifications.md): all that differs between
 * kinds, in one entry of CHANNEL_KINDS (channel-kinds.ts). Everything else (the list of an agent's
 * channels, the queue, the retries, the record of each try) is the same for every kind.
 */
export interface ChannelKind<C extends { kind: string }> {
  /** The fields a channel of this kind takes, `kind` first: any other is refused. */
  readonly fields: readonly string[];
  /**
   * Reads a channel of this kind from an agent's config: each problem pushed names its path
   * (`agents.sap-orders.notify.1.url_env must …`). `raw` holds only fields of the kind (the
   * others are refused before); null when one of its own is missing or wrong. Pure.
   */
  read(raw: Record<string, unknown>, path: string, problems: string[]): C | null;
  /** Sends one delivery to the channel, with the means every kind shares. */
  send(channel: C, delivery: DeliveryToSend, means: SendingMeans): Promise<SendOutcome>;
  /** Where a delivery went, as `GET /api/admin/deliveries` shows it: never a secret. */
  shownTo(channel: C): string;
}

/** What a kind sends of a delivery. */
export interface DeliveryToSend {
  id: string;
  tenant: string;
  event: NotifyEventKind;
  message: NotificationMessage;
}

/** How one try ended. */
export type SendOutcome =
  | { kind: 'delivered' }
  | { kind: 'not_granted'; error: string }
  /** Trying again cannot help (a secret unset, a 4xx, no SMTP server configured). */
  | { kind: 'failed'; error: string }
  | { kind: 'retry'; error: string };

/**
 * What a kind sends with (delivery-sending.service.ts): the secrets, released for the channel's
 * destination; one POST, or one mail through the deployment's SMTP server, each within
 * NOTIFY_TIMEOUT_MS. A SecretRefused thrown by `grants` is recorded as the try's outcome.
 */
export interface SendingMeans {
  grants: Pick<SecretGrants, 'release' | 'releaseDestination'>;
  post: (url: string, body: string, headers: Record<string, string>) => Promise<SendOutcome>;
  mail: (to: string[], delivery: DeliveryToSend) => Promise<SendOutcome>;
}
