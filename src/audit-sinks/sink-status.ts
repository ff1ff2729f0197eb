import type { SinkState } from './audit-sinks.repository';

/** What GET shows of a sink's delivery, and what the lag metrics say. Pure. */
export interface SinkStatus {
  /** The seq of the last event the sink acknowledged (0: none yet). */
  delivered_seq: number;
  /** The seq of the tenant's newest event. */
  head_seq: number;
  lag_events: number;
  /** Seconds since the oldest event not yet acknowledged was recorded; 0 when caught up. */
  lag_seconds: number;
  last_delivered_at: string | null;
  /**
   * Why the last try failed (a code or status, never the sink's answer); null after a delivery.
   * While the sink's destination is not granted, the missing grant, whatever a try found before.
   */
  last_error: string | null;
  last_error_at: string | null;
  next_try_at: string;
  /** The operator's command that grants what the sink lacks now (docs/screen-host.md); null when granted. */
  missing_grant: string | null;
}

/** A grant the sink needs and lacks now, as Destinations or SecretGrants refuse it. */
export interface MissingGrant {
  message: string;
  fix: string;
}

export function sinkStatus(
  state: SinkState,
  now: Date,
  missing: MissingGrant | null = null,
): SinkStatus {
  const lagEvents = Math.max(0, state.headSeq - state.deliveredSeq);
  const lagSeconds =
    lagEvents > 0 && state.oldestUnsentAt
      ? Math.max(0, (now.getTime() - state.oldestUnsentAt.getTime()) / 1000)
      : 0;
  return {
    delivered_seq: state.deliveredSeq,
    head_seq: state.headSeq,
    lag_events: lagEvents,
    lag_seconds: Math.round(lagSeconds * 1000) / 1000,
    last_delivered_at: state.lastDeliveredAt?.toISOString() ?? null,
    // A try made while the destination was granted may have failed in a way that says
    // something about the network there; once it is not granted, only the missing grant shows.
    last_error: missing ? `not_granted: ${missing.message}` : state.lastError,
    last_error_at: state.lastErrorAt?.toISOString() ?? null,
    next_try_at: state.nextTryAt.toISOString(),
    missing_grant: missing?.fix ?? null,
  };
}
