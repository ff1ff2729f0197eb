import { isPlainObject } from '../../common/is-plain-object';
import { destinationOrigin } from '../../destinations/origin';
import {
  ENV_NAME_PATTERN,
  LIMITS,
  NOTIFY_KINDS,
  type NotifyChannel,
  type NotifyKind,
} from './agent-config';
import { ENV_NAME_MESSAGE } from './dto/field-checks';

/**
 * Reads an agent's `notify` list (docs/security.md, docs/notifications.md): each channel by its `kind`,
 * with only the fields that kind takes. Every problem names its path
 * (`agents.sap-orders.notify.1.url_env must name an environment variable …`). Pure.
 */

const FIELDS: Record<NotifyKind, readonly string[]> = {
  webhook: ['kind', 'url', 'secret_env'],
  slack: ['kind', 'url_env', 'signing_secret_env'],
  teams: ['kind', 'url_env', 'bot_app_id'],
  email: ['kind', 'to'],
};

/** An address as a mail server takes it: no spaces, no display name, one @, a dot in the domain. */
const ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;

export function parseNotify(raw: unknown, path: string, problems: string[]): NotifyChannel[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push(
      `${path} must be a list of channels [{"kind": "webhook" | "slack" | "teams" | "email", …}]`,
    );
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
    problems.push(`${path} must be a channel {"kind": "webhook" | "slack" | "teams" | "email", …}`);
    return null;
  }
  const kind = raw.kind;
  if (typeof kind !== 'string' || !(NOTIFY_KINDS as readonly string[]).includes(kind)) {
    problems.push(`${path}.kind must be one of ${NOTIFY_KINDS.join(', ')}`);
    return null;
  }
  const k = kind as NotifyKind;
  const before = problems.length;
  for (const key of Object.keys(raw)) {
    if (!FIELDS[k].includes(key)) {
      problems.push(
        `${path}.${key.slice(0, 100)} is not a field of a ${k} channel (one of ${FIELDS[k].join(', ')})`,
      );
    }
  }
  switch (k) {
    case 'webhook': {
      const url = webhookUrl(raw.url, `${path}.url`, problems);
      const secretEnv = envName(raw.secret_env, `${path}.secret_env`, 'secret_env', problems);
      if (problems.length > before || !url || !secretEnv) return null;
      return { kind: 'webhook', url, secret_env: secretEnv };
    }
    case 'slack': {
      const urlEnv = envName(raw.url_env, `${path}.url_env`, 'url_env', problems);
      const signing =
        raw.signing_secret_env === undefined || raw.signing_secret_env === null
          ? undefined
          : envName(
              raw.signing_secret_env,
              `${path}.signing_secret_env`,
              'signing_secret_env',
              problems,
            );
      if (problems.length > before || !urlEnv) return null;
      return signing
        ? { kind: 'slack', url_env: urlEnv, signing_secret_env: signing }
        : { kind: 'slack', url_env: urlEnv };
    }
    case 'teams': {
      const urlEnv = envName(raw.url_env, `${path}.url_env`, 'url_env', problems);
      const botAppId =
        raw.bot_app_id === undefined || raw.bot_app_id === null
          ? undefined
          : appId(raw.bot_app_id, `${path}.bot_app_id`, problems);
      if (problems.length > before || !urlEnv) return null;
      return botAppId
        ? { kind: 'teams', url_env: urlEnv, bot_app_id: botAppId }
        : { kind: 'teams', url_env: urlEnv };
    }
    case 'email': {
      const to = addresses(raw.to, `${path}.to`, problems);
      if (problems.length > before || !to) return null;
      return { kind: 'email', to };
    }
  }
}

function webhookUrl(raw: unknown, path: string, problems: string[]): string | null {
  if (raw === undefined || raw === null) {
    problems.push(`${path} is required`);
    return null;
  }
  if (typeof raw !== 'string' || raw.length > LIMITS.url) {
    problems.push(`${path} must be a URL of at most ${LIMITS.url} characters`);
    return null;
  }
  const checked = destinationOrigin(raw);
  if ('problem' in checked) {
    problems.push(`${path}: ${checked.problem}`);
    return null;
  }
  return raw;
}

function envName(raw: unknown, path: string, field: string, problems: string[]): string | null {
  if (raw === undefined || raw === null) {
    problems.push(`${path} is required`);
    return null;
  }
  if (typeof raw !== 'string' || !ENV_NAME_PATTERN.test(raw)) {
    problems.push(`${path.slice(0, path.length - field.length)}${ENV_NAME_MESSAGE(field)}`);
    return null;
  }
  return raw;
}

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

function addresses(raw: unknown, path: string, problems: string[]): string[] | null {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > LIMITS.notify_to) {
    problems.push(`${path} must be a list of 1 to ${LIMITS.notify_to} e-mail addresses`);
    return null;
  }
  const to: string[] = [];
  raw.forEach((item: unknown, i) => {
    if (typeof item !== 'string' || item.length > LIMITS.email || !ADDRESS.test(item)) {
      const shown = typeof item === 'string' ? JSON.stringify(item.slice(0, 80)) : typeof item;
      problems.push(`${path}.${i} must be an e-mail address like ops@example.com, not ${shown}`);
      return;
    }
    to.push(item);
  });
  return to.length === raw.length ? to : null;
}
