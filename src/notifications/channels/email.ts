import type { ChannelKind } from './channel-kind';
import { CHANNEL_BOUNDS } from './read-fields';

/** An e-mail to `to`, through the deployment's SMTP server and from its sender. */
export interface EmailChannel {
  kind: 'email';
  to: string[];
}

export const EMAIL: ChannelKind<EmailChannel> = {
  fields: ['kind', 'to'],

  read(raw, path, problems) {
    const to = addresses(raw.to, `${path}.to`, problems);
    if (!to) return null;
    return { kind: 'email', to };
  },

  send: (channel, d, { mail }) => mail(channel.to, d),

  shownTo: (channel) => channel.to.join(', '),
};

/** An address as a mail server takes it: no spaces, no display name, one @, a dot in the domain. */
const ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;

function addresses(raw: unknown, path: string, problems: string[]): string[] | null {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > CHANNEL_BOUNDS.notify_to) {
    problems.push(`${path} must be a list of 1 to ${CHANNEL_BOUNDS.notify_to} e-mail addresses`);
    return null;
  }
  const to: string[] = [];
  raw.forEach((item: unknown, i) => {
    if (typeof item !== 'string' || item.length > CHANNEL_BOUNDS.email || !ADDRESS.test(item)) {
      const shown = typeof item === 'string' ? JSON.stringify(item.slice(0, 80)) : typeof item;
      problems.push(`${path}.${i} must be an e-mail address like ops@example.com, not ${shown}`);
      return;
    }
    to.push(item);
  });
  return to.length === raw.length ? to : null;
}
