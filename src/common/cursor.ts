import { invalid } from './domain-error';

/** An opaque `next_cursor`: the position after the last item of a page (DESIGN §9 lists). */
export function encodeCursor(position: Array<string | number>): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position a cursor stands for; a cursor this API did not give out is a 400. */
export function decodeCursor<T extends Array<string | number>>(cursor: string, shape: string): T {
  try {
    const position: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (Array.isArray(position) && position.length === shape.length) {
      const fits = position.every((v, i) =>
        shape[i] === 'n' ? Number.isSafeInteger(v) : typeof v === 'string' && v.length <= 100,
      );
      if (fits) return position as T;
    }
  } catch {
    // fall through to the refusal
  }
  throw invalid('cursor is not one this API gave out');
}
