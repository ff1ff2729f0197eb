import { isPlainObject } from '../../common/is-plain-object';
import { channelKind } from '../../notifications/notify-channel';
import { LIMITS, NOTIFY_KINDS, type NotifyChannel, type NotifyKind } from './agent-config';

/**
 * Reads an agent's `notify` list (docs/security.md, docs/notifications.md): each channel by its
 * `kind`, with only the fields that kind takes, read as that kind reads them
 * (notifications/channels/). Every problem names its path
 * (`agents.sap-orders.notify.1.url_env must name an environment variable …`). Pure.
 */

/** `"webhook" | "slack" | …`, as a refusal shows the kinds. */
const KINDS_SHOWN = NOTIFY_KINDS.map((kind) => `"${kind}"`).join(' | ');

export function parseNotify(raw: unknown, path: string, problems: string[]): NotifyChannel[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push(`${path} must be a list of channels [{"kind": ${KINDS_SHOWN}, …}]`);
    return [];
  }
  if (raw.length > LIMITS.notify) {
    problems.push(`${path}: at most ${LIMITS.notify} channels`);
    return [];
  }
  const channels: NotifyChannel[] = [];
  raw.forEach((item: unknown, i) => {
    const channel = parseChannel(item, `${path}.${i}`, problems);
    if (channel) channels.push(channel);
  });
  return channels;
}

export function parseIncludeScreen(raw: unknown, path: string, problems: string[]): boolean {
  if (raw === undefined || raw === null) return false;
  if (typeof raw !== 'boolean') {
    problems.push(`${path} must be true or false`);
    return false;
  }
  return raw;
}

function parseChannel(raw: unknown, path: string, problems: string[]): NotifyChannel | null {
  if (!isPlainObject(raw)) {
    problems.push(`${path} must be a channel {"kind": ${KINDS_SHOWN}, …}`);
    return null;
  }
  const kind = raw.kind;
  if (typeof kind !== 'string' || !(NOTIFY_KINDS as readonly string[]).includes(kind)) {
    problems.push(`${path}.kind must be one of ${NOTIFY_KINDS.join(', ')}`);
    return null;
  }
  const ofKind = channelKind(kind as NotifyKind);
  const fields = ofKind.fields;
  const before = problems.length;
  for (const key of Object.keys(raw)) {
    if (!fields.includes(key)) {
      problems.push(
        `${path}.${key.slice(0, 100)} is not a field of a ${kind} channel (one of ${fields.join(', ')})`,
      );
    }
  }
  const channel = ofKind.read(raw, path, problems);
  return problems.length > before ? null : channel;
}
