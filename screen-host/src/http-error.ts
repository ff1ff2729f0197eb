/** Errors the screen host answers, always as JSON `{statusCode, error, message}`. */
import { STATUS_CODES } from 'node:http';

/** An error whose message is meant for the caller (unlike an unexpected one, answered 500). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The body of an error answer; `error` is the status's name unless a code is given. */
export function errorBody(statusCode: number, message: string, error?: string) {
  return { statusCode, error: error ?? STATUS_CODES[statusCode] ?? 'Error', message };
}
