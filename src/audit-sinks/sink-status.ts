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
  /** Why the last try failed (a code or status, never the sink's answer); null after a delivery. */
  last_error: string | null;
  last_error_at: string | null;
  next_try_at: string;
}

export function sinkStatus(state: SinkState, now: Date): SinkStatus {
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
    last_error: state.lastError,
    last_error_at: state.lastErrorAt?.toISOString() ?? null,
    next_try_at: state.nextTryAt.toISOString(),
  };
}
