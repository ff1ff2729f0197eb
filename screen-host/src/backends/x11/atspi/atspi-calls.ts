/**
 * What reading AT-SPI can run into, the one shape of a method call on the bus, and the names
 * the readers share (atspi-client.ts owns the connection).
 */

export const ACCESSIBLE = 'org.a11y.atspi.Accessible';
export const PROPERTIES = 'org.freedesktop.DBus.Properties';
/** ATSPI_COORD_TYPE_SCREEN: rectangles and points in screen coordinates. */
export const SCREEN_COORDS = 0;

/** The bus did not answer in time, or answered what AT-SPI never says: no outline now. */
export class AtspiUnavailable extends Error {}

/** A call that failed with a D-Bus error (the application answered, with an error). */
export class DbusCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One method call, answered by `deadline` (a Date.now() value) or failed. */
export type BusCall = (
  deadline: number,
  destination: string,
  path: string,
  iface: string,
  member: string,
  signature?: string,
  body?: unknown[],
) => Promise<unknown>;

/** An answer that may fail with a D-Bus error (an element gone since): null then. */
export async function optional(call: Promise<unknown>): Promise<unknown> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof DbusCallError) return null;
    throw err;
  }
}

/** The object paths of a list of references `a(so)`. */
export function referencePaths(refs: unknown): string[] {
  if (!Array.isArray(refs)) return [];
  return refs
    .map((r: unknown) => (Array.isArray(r) && typeof r[1] === 'string' ? r[1] : null))
    .filter((p): p is string => p !== null);
}

/** The object path of one reference `(so)`, or null. */
export function referencePath(ref: unknown): string | null {
  return Array.isArray(ref) && typeof ref[1] === 'string' ? ref[1] : null;
}
