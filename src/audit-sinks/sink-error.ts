/**
 * A batch a sink did not acknowledge, with a short code Warden keeps as the sink's `last_error`
 * (`ECONNREFUSED`, `timeout`, `HTTP 503`, `not_granted: …`): never what the sink answered.
 * `acknowledged` is how many events at the head of the batch the sink did acknowledge before it
 * failed (RELP acknowledges each one); the shipper moves the cursor past those.
 */
export class SinkError extends Error {
  constructor(
    readonly code: string,
    readonly acknowledged = 0,
  ) {
    super(code);
    this.name = 'SinkError';
  }
}

/** A socket error's code (`ECONNRESET`), or its name. */
export function errorCode(error: Error): string {
  return (error as NodeJS.ErrnoException).code ?? error.name ?? 'error';
}
