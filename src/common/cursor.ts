import { invalid } from './domain-error';

/**
 * An opaque `next_cursor`: the position after the last item of a page (docs/api.md lists), as
 * base64url JSON. Every list of the API pages with it.
 */
export function encodeCursor(position: Array<string | number>): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** UTC, with milliseconds or (as PostgreSQL keeps time) microseconds. */
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(\d{3})?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What each place of a position must be: `n` a non-negative integer, `t` an ISO time, `u` a UUID. */
const FITS: Record<string, (v: unknown) => boolean> = {
  n: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  t: (v) => typeof v === 'string' && ISO.test(v) && !Number.isNaN(Date.parse(v)),
  u: (v) => typeof v === 'string' && UUID.test(v),
};

/** The position a cursor stands for, checked against `shape` (e.g. `tu`); anything else is a 400. */
export function decodeCursor<T extends Array<string | number>>(cursor: string, shape: string): T {
  try {
    const position: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (
      Array.isArray(position) &&
      position.length === shape.length &&
      position.every((v, i) => FITS[shape[i]](v))
    ) {
      return position as T;
    }
  } catch {
    // not JSON: refused below
  }
  throw invalid('cursor is not one this API gave out');
}
