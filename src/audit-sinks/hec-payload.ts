import type { AuditEventView } from '../audit/audit.service';

/**
 * Events as Splunk's HTTP Event Collector takes them: one JSON object per event, `{time, host,
 * source, sourcetype, index?, event}`, the objects one after another in one POST body. `time` is
 * the event's time in seconds (with milliseconds); `event` is the event as the NDJSON export
 * writes it. Pure.
 */

export interface HecOptions {
  host: string;
  source?: string;
  index?: string;
}

export function hecBody(events: AuditEventView[], options: HecOptions): string {
  return events
    .map((event) =>
      JSON.stringify({
        time: Date.parse(event.at) / 1000,
        host: options.host,
        source: options.source ?? 'warden',
        sourcetype: '_json',
        ...(options.index === undefined ? {} : { index: options.index }),
        event,
      }),
    )
    .join('\n');
}

/** Whether HEC acknowledged the batch: a 200 whose JSON body says `"code": 0`. */
export function hecAcknowledged(status: number, body: string): boolean {
  if (status !== 200) return false;
  try {
    const parsed: unknown = JSON.parse(body);
    return (
      typeof parsed === 'object' && parsed !== null && (parsed as { code?: unknown }).code === 0
    );
  } catch {
    return false;
  }
}
