import type { AuditEventView } from '../audit/audit.service';

/**
 * One audit event as an RFC 5424 syslog message in an octet-counted frame (RFC 6587 §3.4.1, as
 * RFC 5425 requires over TLS): `<110>1 <at> <host> warden - <type> [warden@32473 tenant=… type=…
 * run=… step=… seq=… sha256=… prev_sha256=… actor=…] <event JSON>`. Facility 13 (log audit),
 * severity 6 (informational). MSG is the event exactly as the NDJSON export writes it, so a
 * receiver can recompute `sha256` from one message. Pure.
 */

/** The private enterprise number in the structured data's id (`warden@32473`, RFC 5612's example). */
export const SD_ID = 'warden@32473';
const PRI = 13 * 8 + 6;

export function syslogMessage(event: AuditEventView, hostname: string): string {
  const params: Array<[string, string | number | null]> = [
    ['tenant', event.tenant],
    ['type', event.type],
    ['run', event.run_id],
    ['step', event.step],
    ['seq', event.seq],
    ['sha256', event.sha256],
    ['prev_sha256', event.prev_sha256],
    ['actor', event.actor],
  ];
  const sd = params
    .filter(([, value]) => value !== null)
    .map(([name, value]) => `${name}="${paramValue(String(value))}"`)
    .join(' ');
  return [
    `<${PRI}>1`,
    event.at,
    headerField(hostname, 255),
    'warden',
    '-',
    headerField(event.type, 32),
    `[${SD_ID} ${sd}]`,
    JSON.stringify(event),
  ].join(' ');
}

/** `<length> <message>`: the length in octets of the UTF-8 message. */
export function octetFrame(message: string): string {
  return `${Buffer.byteLength(message, 'utf8')} ${message}`;
}

/** A PARAM-VALUE: `"`, `\` and `]` escaped with a backslash (RFC 5424 §6.3.3). */
function paramValue(value: string): string {
  return value.replace(/["\\\]]/g, (c) => `\\${c}`);
}

/** A header field: printable US-ASCII without spaces, at most `max`; `-` when nothing is left. */
function headerField(value: string, max: number): string {
  const cleaned = value.replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return cleaned === '' ? '-' : cleaned;
}
