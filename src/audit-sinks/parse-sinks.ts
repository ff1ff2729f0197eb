import { invalid } from '../common/domain-error';
import { isPlainObject } from '../common/is-plain-object';
import { ENV_NAME_MESSAGE, ENV_NAME_PATTERN } from '../config/names';
import { isSecretName, looksLikeSecretValue } from '../common/secret-fields';
import { destinationOrigin } from '../destinations/origin';
import {
  SINK_FIELDS,
  SINK_KINDS,
  SINK_LIMITS,
  SINK_NAME_PATTERN,
  type SinkConfig,
  type SinkKind,
  SYSLOG_PROTOCOLS,
  type SyslogProtocol,
} from './sink-config';

/**
 * Reads the body of `PUT /api/admin/audit-sinks` into the sinks it names, or refuses it with every
 * problem named by its path (`sinks.0.port must be an integer from 1 to 65535`). Pure.
 */

/** What GET adds to each sink; a GET body may be PUT back as it is. */
const READ_ONLY = ['status'];
const MAX_PROBLEMS = 20;
const HOST =
  /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$|^\[?[0-9A-Fa-f:.]{2,45}\]?$/;
const INDEX = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,79}$/;

export function parseSinksBody(raw: unknown): SinkConfig[] {
  const problems: string[] = [];
  const sinks = parseSinks(raw, problems);
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > MAX_PROBLEMS) shown.push(`and ${problems.length - MAX_PROBLEMS} more`);
    throw invalid(shown.join('; '));
  }
  return sinks;
}

function parseSinks(raw: unknown, problems: string[]): SinkConfig[] {
  if (!isPlainObject(raw)) {
    problems.push('the body must be a JSON object {"sinks": [...]}');
    return [];
  }
  for (const key of Object.keys(raw)) {
    if (key !== 'sinks') problems.push(`${key.slice(0, 100)} is not a field (only sinks)`);
  }
  const list = raw.sinks;
  if (!Array.isArray(list)) {
    problems.push('sinks must be a list of sinks [{"name", "kind": "syslog" | "splunk_hec", …}]');
    return [];
  }
  if (list.length > SINK_LIMITS.sinks) {
    problems.push(`sinks: at most ${SINK_LIMITS.sinks} sinks`);
    return [];
  }
  const sinks: SinkConfig[] = [];
  const seen = new Set<string>();
  list.forEach((item: unknown, i) => {
    const sink = parseSink(item, `sinks.${i}`, problems);
    if (!sink) return;
    if (seen.has(sink.name)) problems.push(`sinks.${i}.name: ${sink.name} is named twice`);
    seen.add(sink.name);
    sinks.push(sink);
  });
  return sinks;
}

function parseSink(raw: unknown, path: string, problems: string[]): SinkConfig | null {
  if (!isPlainObject(raw)) {
    problems.push(`${path} must be a sink {"name", "kind": "syslog" | "splunk_hec", …}`);
    return null;
  }
  const before = problems.length;
  const kind = raw.kind;
  if (typeof kind !== 'string' || !(SINK_KINDS as readonly string[]).includes(kind)) {
    problems.push(`${path}.kind must be one of ${SINK_KINDS.join(', ')}`);
    return null;
  }
  const k = kind as SinkKind;
  for (const [key, value] of Object.entries(raw)) {
    if (SINK_FIELDS[k].includes(key) || READ_ONLY.includes(key)) {
      if (typeof value === 'string' && looksLikeSecretValue(value)) {
        problems.push(`${path}.${key} holds a secret: name its environment variable in token_env`);
      }
      continue;
    }
    problems.push(
      isSecretName(key)
        ? `${path}.${key.slice(0, 100)} would hold a secret: name its environment variable in token_env`
        : `${path}.${key.slice(0, 100)} is not a field of a ${k} sink (one of ${SINK_FIELDS[k].join(', ')})`,
    );
  }
  const name = raw.name;
  if (typeof name !== 'string' || !SINK_NAME_PATTERN.test(name)) {
    problems.push(
      `${path}.name must be 1-63 of a-z, 0-9, _ and -, starting with a letter or digit`,
    );
  }
  const caFile = optionalString(raw.ca_file, `${path}.ca_file`, SINK_LIMITS.ca_file, problems);
  if (caFile !== undefined && !caFile.startsWith('/')) {
    problems.push(`${path}.ca_file must be an absolute path`);
  }
  const ca = caFile === undefined ? {} : { ca_file: caFile };
  if (k === 'syslog') {
    const host = raw.host;
    if (typeof host !== 'string' || !HOST.test(host)) {
      problems.push(`${path}.host must be a host name or an IP address (no scheme, no port)`);
    }
    const port = raw.port;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
      problems.push(`${path}.port must be an integer from 1 to 65535`);
    }
    const protocol = raw.protocol;
    if (
      protocol !== undefined &&
      (typeof protocol !== 'string' || !(SYSLOG_PROTOCOLS as readonly string[]).includes(protocol))
    ) {
      problems.push(
        `${path}.protocol must be one of ${SYSLOG_PROTOCOLS.join(', ')} (left out: rfc5425)`,
      );
    }
    if (problems.length > before) return null;
    return {
      name: name as string,
      kind: k,
      host: host as string,
      port: port as number,
      ...(protocol === undefined ? {} : { protocol: protocol as SyslogProtocol }),
      ...ca,
    };
  }
  const url = hecUrl(raw.url, `${path}.url`, problems);
  const tokenEnv = raw.token_env;
  if (typeof tokenEnv !== 'string' || !ENV_NAME_PATTERN.test(tokenEnv)) {
    problems.push(`${path}.${ENV_NAME_MESSAGE('token_env')}`);
  }
  const index = optionalString(raw.index, `${path}.index`, 80, problems);
  if (index !== undefined && !INDEX.test(index)) {
    problems.push(`${path}.index must be a Splunk index name (letters, digits, _ and -)`);
  }
  const source = optionalString(raw.source, `${path}.source`, SINK_LIMITS.source, problems);
  if (problems.length > before || !url) return null;
  return {
    name: name as string,
    kind: k,
    url,
    token_env: tokenEnv as string,
    ...(index === undefined ? {} : { index }),
    ...(source === undefined ? {} : { source }),
    ...ca,
  };
}

function hecUrl(raw: unknown, path: string, problems: string[]): string | null {
  if (typeof raw !== 'string' || raw.length > SINK_LIMITS.url) {
    problems.push(`${path} must be the collector's URL, like https://splunk.example.com:8088`);
    return null;
  }
  const checked = destinationOrigin(raw);
  if ('problem' in checked) {
    problems.push(`${path}: ${checked.problem}`);
    return null;
  }
  const url = new URL(raw);
  if (url.search || url.hash) {
    problems.push(`${path} must have no query or fragment`);
    return null;
  }
  return raw;
}

function optionalString(
  raw: unknown,
  path: string,
  max: number,
  problems: string[],
): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > max) {
    problems.push(`${path} must be a string of 1 to ${max} characters`);
    return undefined;
  }
  return raw;
}
