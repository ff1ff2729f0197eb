import { setTimeout as sleep } from 'node:timers/promises';
import {
  describeFailure,
  describeSdkError,
  ModelCallError,
  type ModelFailure,
  retryable,
} from './model-errors';

/** Bounded retries of one provider call (docs/models.md, docs/operations.md). */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Backoff before attempt n+1 without a retry-after: base × 2^(n-1), ±20%, at most `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A provider asking to wait longer than this is not waited for: the call fails. */
  maxRetryAfterMs: number;
}

export const RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  attempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
});

/** One attempt as the transcript keeps it. */
export interface AttemptRecord {
  attempt: number;
  status: number | null;
  /** null: the attempt succeeded. */
  cause: ModelFailure['cause'] | null;
  latency_ms: number;
  /** How long Warden waited before the next attempt, and whether the provider said so. */
  waited_ms?: number;
  retry_after_ms?: number | null;
}

export class RetriesFailed extends ModelCallError {
  constructor(
    message: string,
    failure: ModelFailure,
    readonly log: AttemptRecord[],
  ) {
    super(message, failure, log.length);
  }
}

export interface RetryOptions {
  policy?: RetryPolicy;
  signal?: AbortSignal;
  /** Tests: a random number in [0, 1) for the jitter. */
  random?: () => number;
}

/**
 * Calls `call` until it succeeds, a failure is not worth retrying, or the attempts are used up.
 * Waits what the provider's retry-after says, else an exponential backoff. Throws `RetriesFailed`
 * whose message and log hold statuses and cause types only.
 */
export async function withRetries<T>(
  call: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<{ value: T; log: AttemptRecord[] }> {
  const policy = options.policy ?? RETRY_POLICY;
  const random = options.random ?? Math.random;
  const log: AttemptRecord[] = [];
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    try {
      const value = await call(attempt);
      log.push({ attempt, status: null, cause: null, latency_ms: elapsed(started) });
      return { value, log };
    } catch (error) {
      if (error instanceof ModelCallError) {
        log.push({ attempt, ...error.failure, latency_ms: elapsed(started) });
        throw new RetriesFailed(error.message, error.failure, log);
      }
      const { retryAfterMs, ...failure } = describeSdkError(error);
      const record: AttemptRecord = { attempt, ...failure, latency_ms: elapsed(started) };
      log.push(record);
      const aborted = options.signal?.aborted || failure.cause === 'aborted';
      if (aborted || !retryable(failure) || attempt >= policy.attempts) {
        throw new RetriesFailed(message(failure, attempt, aborted), failure, log);
      }
      if (retryAfterMs !== null && retryAfterMs > policy.maxRetryAfterMs) {
        throw new RetriesFailed(
          `the model provider answered ${describeFailure(failure)} and asked to wait ${Math.ceil(retryAfterMs / 1000)} s, longer than Warden waits (${policy.maxRetryAfterMs / 1000} s)`,
          failure,
          log,
        );
      }
      const backoff = Math.min(
        policy.maxDelayMs,
        policy.baseDelayMs * 2 ** (attempt - 1) * (0.8 + 0.4 * random()),
      );
      const wait = Math.round(retryAfterMs ?? backoff);
      record.waited_ms = wait;
      record.retry_after_ms = retryAfterMs;
      try {
        await sleep(wait, undefined, { signal: options.signal });
      } catch {
        throw new RetriesFailed(message(failure, attempt, true), failure, log);
      }
    }
  }
}

function message(failure: ModelFailure, attempts: number, aborted: boolean): string {
  if (aborted) return 'the model call was stopped (Warden is shutting down)';
  const what =
    failure.status === null
      ? failure.cause === 'timeout'
        ? 'did not answer in time'
        : 'could not be reached'
      : `answered ${describeFailure(failure)}`;
  return `the model provider ${what}${attempts > 1 ? ` (${attempts} attempts)` : ''}`;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
