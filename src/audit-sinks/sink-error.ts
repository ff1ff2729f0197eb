/**
 * A batch a sink did not acknowledge, with a short code Warden keeps as the sink's `last_error`
 * (`ECONNREFUSED`, `timeout`, `HTTP 503`, `not_granted: …`): never what the sink answered.
 */
export class SinkError extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = 'SinkError';
  }
}
