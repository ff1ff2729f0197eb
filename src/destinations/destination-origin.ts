/**
 * Where a connection goes, as an origin a grant can name (docs/security.md "Destinations"): a scheme, a
 * host and a port, nothing else. Pure.
 *
 * - `https://host:port` (the WHATWG origin: the default port 443 left out, the host lower-case and
 *   IP addresses in their canonical form), `http://` only on loopback: screen hosts, model
 *   endpoints, webhooks, Slack and Teams, Splunk HEC.
 * - `tls://host:port`, the port always written: a syslog sink (RFC 5424 over TLS, or anything else
 *   spoken over a TLS connection to that port). The scheme names the connection, not the protocol
 *   on it.
 * - `smtp://host:port` (587 when the URL names none, STARTTLS as the server offers it) and
 *   `smtps://host:port` (465, TLS from the start): the deployment's SMTP server.
 *
 * The host is the name as written (normalised as a URL normalises it), never what it resolves to:
 * a grant for a name grants whatever that name resolves to when Warden connects.
 */
import { destinationOrigin } from './origin';

/** A destination Warden may connect to: its origin, and the host and port it connects to. */
export interface ParsedDestination {
  origin: string;
  /** The host as the connection uses it (IPv6 without brackets). */
  host: string;
  port: number;
}

export type Checked<T> = T | { problem: string };

const SOCKET_SCHEMES: Record<string, number | null> = { tls: null, smtp: 587, smtps: 465 };

/** The host and port a URL normalises `host` and `port` to, or null when they are not a host. */
function normalHost(host: string, port: number): { host: string; port: number } | null {
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  const bare = host.replace(/^\[|\]$/g, '');
  const written = bare.includes(':') ? `[${bare}]` : bare;
  let url: URL;
  try {
    // The https parser normalises a host the way every https connection here sees it.
    url = new URL(`https://${written}:${port}/`);
  } catch {
    return null;
  }
  if (url.hostname === '' || url.pathname !== '/' || url.username || url.password) return null;
  return { host: url.hostname, port };
}

function socketOrigin(scheme: string, host: string, port: number): string {
  return `${scheme}://${host}:${port}`;
}

/** The destination of an https URL (http on loopback only), as `destinationOrigin` checks it. */
export function httpDestination(value: string): Checked<ParsedDestination> {
  const checked = destinationOrigin(value);
  if ('problem' in checked) return checked;
  const url = new URL(value);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { origin: checked.origin, host: url.hostname.replace(/^\[|\]$/g, ''), port };
}

/** The destination of a syslog sink: a TLS connection to `host` and `port`. */
export function tlsDestination(host: string, port: number): Checked<ParsedDestination> {
  const normal = normalHost(host, port);
  if (!normal) return { problem: `${JSON.stringify(`${host}:${port}`)} is not a host and port` };
  return {
    origin: socketOrigin('tls', normal.host, normal.port),
    host: normal.host.replace(/^\[|\]$/g, ''),
    port: normal.port,
  };
}

/** The destination of an `smtp://` or `smtps://` URL (SMTP_URL); its user is not part of it. */
export function smtpDestination(value: string): Checked<ParsedDestination> {
  const match = /^(smtps?):\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)(?::(\d{1,5}))?\/?$/i.exec(value);
  if (!match) return { problem: 'not an smtp:// or smtps:// URL with a host and an optional port' };
  const scheme = match[1].toLowerCase();
  const port = match[3] ? Number(match[3]) : SOCKET_SCHEMES[scheme]!;
  const normal = normalHost(decodeURIComponent(match[2]), port);
  if (!normal) return { problem: `${JSON.stringify(match[2])} is not a host and port` };
  return {
    origin: socketOrigin(scheme, normal.host, normal.port),
    host: normal.host.replace(/^\[|\]$/g, ''),
    port: normal.port,
  };
}

/**
 * An origin as the operator writes it in a grant (`--to`), normalised: `https://host[:port]`,
 * `http://` on loopback, `tls://host:port`, `smtp://host[:port]`, `smtps://host[:port]`; nothing
 * after the port (a trailing `/` is fine), no user or password. The reason it is not one otherwise.
 */
export function grantableOrigin(value: string): Checked<{ origin: string }> {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme === 'https' || scheme === 'http') {
    const checked = httpDestination(value);
    if ('problem' in checked) return checked;
    const url = new URL(value);
    if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
      return { problem: notAnOrigin(value) };
    }
    return { origin: checked.origin };
  }
  if (scheme === undefined || !(scheme in SOCKET_SCHEMES)) {
    return {
      problem: `${JSON.stringify(value.slice(0, 200))} is not an origin Warden connects to (https://, http:// on loopback, tls://, smtp://, smtps://)`,
    };
  }
  const match = /^[a-z]+:\/\/(\[[^\]]*\]|[^:/?#@]*)(?::(\d{1,5}))?\/?$/i.exec(value);
  if (!match) return { problem: notAnOrigin(value) };
  const port = match[2] ? Number(match[2]) : SOCKET_SCHEMES[scheme];
  if (port === null) {
    return { problem: `${scheme}:// needs a port (${scheme}://host:port): there is no default` };
  }
  const normal = normalHost(match[1], port ?? 0);
  if (!normal) return { problem: `${JSON.stringify(match[1])} is not a host and port` };
  return { origin: socketOrigin(scheme, normal.host, normal.port) };
}

function notAnOrigin(value: string): string {
  return `${JSON.stringify(value.slice(0, 200))} is not an origin: a scheme, a host and a port, like https://host.internal:8443 or tls://siem.internal:6514, with no path, query or user`;
}

/**
 * A stored origin in its normal form, for comparing: what `grantableOrigin` makes of it, or null
 * (a row written by hand that names no origin grants nothing).
 */
export function normalOrigin(stored: string): string | null {
  const checked = grantableOrigin(stored);
  return 'problem' in checked ? null : checked.origin;
}
