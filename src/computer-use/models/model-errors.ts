/**
 * Why a governed model call failed, in words that are safe to store, log and show: an HTTP status
 * and a cause type of Warden's own naming, never the provider's error body (it can quote the
 * prompt back) and never an SDK error's message (it embeds that body).
 */

export type ModelFailureCause =
  | 'timeout'
  | 'connection'
  | 'rate_limited'
  | 'server_error'
  | 'client_error'
  | 'unauthorized'
  | 'bad_answer'
  | 'aborted'
  | 'not_configured'
  | 'secret_in_request';

export interface ModelFailure {
  /** The HTTP status the provider answered, or null when no answer came. */
  status: number | null;
  cause: ModelFailureCause;
}

/** The run fails `model_error`. Its message names the status and cause only. */
export class ModelCallError extends Error {
  constructor(
    message: string,
    readonly failure: ModelFailure,
    readonly attempts = 0,
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}

/** The run stops `budget_exhausted`: the agent's token or cost budget is used up. */
export class BudgetExhaustedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BudgetExhaustedError';
  }
}

/** Whether a failure is worth another attempt: timeouts, dropped connections, 408, 409, 429, 5xx. */
export function retryable(failure: ModelFailure): boolean {
  if (failure.cause === 'timeout' || failure.cause === 'connection') return true;
  const s = failure.status;
  return s === 408 || s === 409 || s === 429 || (s !== null && s >= 500 && s <= 599);
}

/** The cause type of an HTTP status. */
export function causeOfStatus(status: number): ModelFailureCause {
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status >= 500) return 'server_error';
  if (status === 408) return 'timeout';
  return 'client_error';
}

interface SdkErrorShape {
  name?: unknown;
  status?: unknown;
  headers?: unknown;
}

/**
 * Reads what may be kept of an error thrown by a provider SDK (`@anthropic-ai/sdk`, `openai`):
 * both name their classes alike (APIError with `status` and `headers`, APIConnectionError,
 * APIConnectionTimeoutError, APIUserAbortError). Anything else is a connection failure.
 */
export function describeSdkError(error: unknown): ModelFailure & { retryAfterMs: number | null } {
  const e = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorShape;
  const name = typeof e.name === 'string' ? e.name : '';
  const ctor = (error as { constructor?: { name?: string } } | null)?.constructor?.name ?? '';
  const kind = `${ctor} ${name}`;
  if (/UserAbort|AbortError/.test(kind))
    return { status: null, cause: 'aborted', retryAfterMs: null };
  if (/Timeout/.test(kind)) return { status: null, cause: 'timeout', retryAfterMs: null };
  if (typeof e.status === 'number' && Number.isInteger(e.status)) {
    return {
      status: e.status,
      cause: causeOfStatus(e.status),
      retryAfterMs: retryAfterMs(e.headers),
    };
  }
  return { status: null, cause: 'connection', retryAfterMs: null };
}

/** `retry-after-ms`, or `retry-after` in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(headers: unknown, now = Date.now()): number | null {
  const get = (name: string): string | null => {
    if (headers && typeof (headers as Headers).get === 'function') {
      return (headers as Headers).get(name);
    }
    if (headers && typeof headers === 'object') {
      const v = (headers as Record<string, unknown>)[name];
      return typeof v === 'string' ? v : null;
    }
    return null;
  };
  const ms = Number(get('retry-after-ms'));
  if (get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = get('retry-after');
  if (raw === null || raw.trim() === '') return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function describeFailure(f: ModelFailure): string {
  return f.status === null ? f.cause : `${f.status} (${f.cause})`;
}
