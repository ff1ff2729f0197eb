/**
 * A tenant's audit sinks as its admin configures them (`PUT /api/admin/audit-sinks`): where the
 * tenant's audit chain is streamed. Secrets are named by environment variable (`token_env`) and
 * released through SecretGrants; a CA file is read only under the deployment's CA_DIR.
 */

export const SINK_KINDS = ['syslog', 'splunk_hec'] as const;
export type SinkKind = (typeof SINK_KINDS)[number];

/**
 * How a syslog sink's messages travel, always over TLS: `rfc5425`, octet-counted frames (RFC 6587
 * §3.4.1) with no acknowledgement; `relp`, RELP (rsyslog's imrelp), each message acknowledged.
 */
export const SYSLOG_PROTOCOLS = ['rfc5425', 'relp'] as const;
export type SyslogProtocol = (typeof SYSLOG_PROTOCOLS)[number];

/** RFC 5424 messages over TCP with TLS, by RFC 5425 (the default) or RELP. */
export interface SyslogSink {
  name: string;
  kind: 'syslog';
  host: string;
  port: number;
  /** Left out: rfc5425. */
  protocol?: SyslogProtocol;
  /** PEM CA certificates under CA_DIR; left out: the system's CAs. */
  ca_file?: string;
}

/** Splunk's HTTP Event Collector: batched events POSTed to `<url>/services/collector/event`. */
export interface SplunkHecSink {
  name: string;
  kind: 'splunk_hec';
  url: string;
  token_env: string;
  index?: string;
  source?: string;
  ca_file?: string;
}

export type SinkConfig = SyslogSink | SplunkHecSink;

export const SINK_FIELDS: Record<SinkKind, readonly string[]> = {
  syslog: ['name', 'kind', 'host', 'port', 'protocol', 'ca_file'],
  splunk_hec: ['name', 'kind', 'url', 'token_env', 'index', 'source', 'ca_file'],
};

export const SINK_LIMITS = { sinks: 10, host: 253, url: 2000, source: 200, ca_file: 1000 };

export const SINK_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** The path HEC takes events on. */
export const HEC_EVENT_PATH = '/services/collector/event';

/** The URL events are POSTed to: the configured URL with HEC's event path after it. */
export function hecEndpoint(url: string): string {
  const base = new URL(url);
  const path = base.pathname.replace(/\/+$/, '');
  base.pathname = path.endsWith(HEC_EVENT_PATH) ? path : `${path}${HEC_EVENT_PATH}`;
  return base.toString();
}
