/**
 * Errors of Warden's own rules. Services throw these; one filter maps the code to an HTTP status,
 * so a service never speaks HTTP and a message is always meant for the caller to read.
 */
export type DomainErrorCode =
  | 'invalid' // 400: the request breaks a rule
  | 'unauthenticated' // 401
  | 'forbidden' // 403
  | 'not_found' // 404: also used for another tenant's resources
  | 'conflict' // 409: the state changed under the caller (an approval already spent)
  | 'gone' // 410: it existed and was deleted on purpose (a screen past its retention)
  | 'too_many' // 429: too much is waiting already (a remote planner's steps); try again later
  | 'unavailable'; // 503: a dependency is down

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** The response's `error` in place of the status's name (`planner_access_required`). */
    readonly label?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string) => new DomainError('invalid', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const gone = (message: string) => new DomainError('gone', message);
