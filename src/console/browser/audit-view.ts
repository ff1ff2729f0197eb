/**
 * The audit page's state, and what each of its parts shows of it, as data: audit.ts and
 * audit-parts.ts turn these into nodes and wire the form and the buttons. No DOM here, so the specs
 * check every view without a browser (the console e2e tests check the nodes in Chromium).
 */
import { eventInWords } from './event-words';
import { clock } from './words';
import type { AuditEvent, Verify } from './api-types';

/** The event types the type field offers: every type, and the prefixes worth filtering on. */
export const KNOWN_TYPES = [
  'computer_use.',
  'computer_use.write.',
  'computer_use.start',
  'computer_use.write.held',
  'computer_use.write',
  'computer_use.write.refused',
  'computer_use.write.stale',
  'computer_use.write.unknown',
  'computer_use.write.receipt',
  'computer_use.action.refused',
  'computer_use.refused',
  'computer_use.end',
  'computer_use.config',
  'computer_use.kill_switch',
  'governance.weaken',
  'approval.decided',
];

/** The columns of the events table, in order. */
export const EVENT_COLUMNS = ['#', 'Time', 'Type', 'Actor', 'Run', 'Step', 'What'];

/** The filters as the form's fields hold them: the times as datetime-local values (local time). */
export interface FilterFields {
  type: string;
  run_id: string;
  since: string;
  until: string;
}

/** A line the page says, and its class (`chain-ok`, `chain-bad`); empty text: nothing said. */
export interface Said {
  className: string;
  text: string;
}

/** Everything the audit page shows is drawn from this. */
export interface AuditState {
  tenant: string;
  /** The events read so far, in chain order. */
  events: AuditEvent[];
  /** Where the next page of events starts; null: none after these. */
  next: string | null;
  /** Whether a page of events was read (the count is said only then). */
  read: boolean;
  /** Why the last read failed; empty: it did not. */
  problem: string;
  /** What the hash chain check said. */
  chain: Said;
  /** What the export said. */
  exported: string;
}

export function auditState(tenant: string): AuditState {
  return {
    tenant,
    events: [],
    next: null,
    read: false,
    problem: '',
    chain: { className: 'chain', text: '' },
    exported: '',
  };
}

/** `2026-05-01T14:00` (a datetime-local field, local time) as ISO 8601 UTC for the API. */
export function toIso(local: string) {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/** ISO 8601 back to a datetime-local value. */
export function toLocal(iso: string | null) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
}

/** The fields as the page's URL fills them (`/console/audit?run_id=…`). */
export function fieldsOf(search: URLSearchParams): FilterFields {
  return {
    type: search.get('type') ?? '',
    run_id: search.get('run_id') ?? '',
    since: toLocal(search.get('since')),
    until: toLocal(search.get('until')),
  };
}

/** The filters as the API and the page's URL take them: trimmed, times in UTC. */
export function filtersOf(fields: FilterFields) {
  return {
    type: fields.type.trim(),
    run_id: fields.run_id.trim(),
    since: toIso(fields.since),
    until: toIso(fields.until),
  };
}

export function leadText(tenant: string) {
  return `Every event of tenant ${tenant} in chain order: each carries the SHA-256 of the one before, so a changed or deleted event breaks the chain.`;
}

/** How many events are shown, once a page was read. */
export function countText(state: AuditState) {
  if (!state.read) return '';
  const shown = state.events.length;
  return shown ? `${shown} events${state.next ? ' so far' : ''}.` : 'No events match.';
}

/** One event's row, as data: its cells, the run it belongs to, and its details. */
export function eventView(event: AuditEvent) {
  return {
    seq: event.seq,
    time: clock(event.at),
    type: event.type,
    actor: event.actor,
    run: event.run_id
      ? { href: `/console/runs/${event.run_id}`, id: event.run_id, short: event.run_id.slice(0, 8) }
      : null,
    step: event.step ?? '',
    words: eventInWords(event),
    details: JSON.stringify(event.details, null, 2),
    sha256: event.sha256,
    prev: event.prev_sha256,
  };
}

export const CHAIN_CHECKING: Said = {
  className: 'chain',
  text: 'Checking every event of the tenant…',
};

/** What the hash chain check found. */
export function chainView(result: Verify, tenant: string): Said {
  return {
    className: `chain ${result.ok ? 'chain-ok' : 'chain-bad'}`,
    text: result.ok
      ? `Chain ok: all ${result.checked} events of tenant ${tenant} are intact and in order. Head SHA-256 ${result.head_sha256.slice(0, 16)}…`
      : `Chain broken: event ${result.first_bad_id ?? '?'} was changed, removed or reordered (${result.checked - 1} events before it are intact).`,
  };
}

export function chainFailed(message: string): Said {
  return { className: 'chain chain-bad', text: `Could not check the chain: ${message}` };
}

/** What the export says once the file is saved. @param bytes the file's size */
export function exportedText(lines: number, bytes: number) {
  return `Exported ${lines} events (${Math.ceil(bytes / 1024)} KB), one JSON object a line.`;
}

/** The exported file's name: the tenant and when, `warden-audit-acme-2026-05-01T14-00-00-000Z`. */
export function exportName(tenant: string, at: Date) {
  return `warden-audit-${tenant}-${at.toISOString().replace(/[:.]/g, '-')}.ndjson`;
}

/** How many events an NDJSON export holds: one a non-empty line. */
export function ndjsonLines(text: string) {
  return text.split('\n').filter(Boolean).length;
}
