/**
 * An answer of the API that is not a success, with the API's own message. Apart from api.ts (which
 * throws it) so that the words that explain a refusal need no browser: their specs run in Node.
 */
export class ApiError extends Error {
  /**
   * @param status 0 when the API did not answer at all
   * @param message the API's own message, meant for people
   */
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
