import type { DataSource } from 'typeorm';
import { escapeLiteral } from 'pg';

/** TypeORM answers `UPDATE … RETURNING` on PostgreSQL as `[rows, rowCount]`; this is the rows. */
export function updatedRows<T>(result: unknown): T[] {
  return (result as [T[], number])[0];
}

/**
 * A condition that is always true and makes the statement's own transaction commit without waiting
 * for its WAL to reach the disk (`synchronous_commit` off, for this transaction only). Only for
 * single statements whose loss in a PostgreSQL crash is harmless: bookkeeping before a durable
 * write (which flushes all WAL before it, so they are durable by the time anything depends on
 * them: a screen, a step's screen), after the step's effect was recorded durably (timings, the
 * lease), counts that only start again (the unchanged-screen streak), or a read's record, which a
 * worker rebuilds by asking the host when it finds the step `sending`. Saves a disk flush each; the
 * writes that guard an effect (`sending`, `held`, the audit trail, a write's record) stay durable.
 */
export const ASYNC_COMMIT = `set_config('synchronous_commit', 'off', true) IS NOT NULL`;

/** An entity from a raw row: every column by its database name (null when the row lacks it). */
export function entityFromRow<T extends object>(
  dataSource: DataSource,
  target: new () => T,
  row: Record<string, unknown>,
): T {
  const entity = new target();
  for (const column of dataSource.getMetadata(target).columns) {
    (entity as Record<string, unknown>)[column.propertyName] = row[column.databaseName] ?? null;
  }
  return entity;
}

/**
 * `column = $k` for each field given, its value added to `params` (jsonb as JSON text, null as
 * NULL), for a hand-written UPDATE of the entity's table. An unknown field is a programming error.
 */
export function setClauses<T extends object>(
  dataSource: DataSource,
  target: new () => T,
  fields: Partial<T>,
  params: unknown[],
): string[] {
  const metadata = dataSource.getMetadata(target);
  const sets: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const column = metadata.findColumnWithPropertyName(key);
    if (!column) throw new Error(`${metadata.tableName} has no column for ${key}`);
    const json = column.type === 'jsonb';
    params.push(json && value !== null ? JSON.stringify(value) : value);
    sets.push(`${column.databaseName} = $${params.length}${json ? '::jsonb' : ''}`);
  }
  return sets;
}

/**
 * A list position's time as PostgreSQL keeps it (microseconds, UTC, ISO 8601), for a cursor that
 * must not lose the rows created within one millisecond.
 */
export function cursorTime(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/**
 * A statement's `$k` parameters written into it as quoted literals, for a round trip that sends
 * several statements at once (PostgreSQL's simple protocol takes no parameters). Each literal is
 * the text node-postgres would have sent for the value (untyped, so PostgreSQL infers its type the
 * same way), quoted by node-postgres' own `escapeLiteral`; null is NULL. Only scalars: a value
 * node-postgres would send another way (a Buffer in binary, an array as an array literal, an
 * object) is a programming error here, as is a `$k` with no value; a text holding NUL is refused,
 * as PostgreSQL refuses it as a parameter.
 */
export function inlineParams(sql: string, params: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, k: string) => {
    const index = Number(k) - 1;
    if (index < 0 || index >= params.length) throw new Error(`no value for $${k}`);
    return literal(params[index]);
  });
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  // PostgreSQL refuses a NUL in text as a parameter; in a statement's text it would end it early.
  if (typeof value === 'string' && value.includes('\u0000')) {
    throw new Error('a parameter holds a NUL character, which PostgreSQL text cannot hold');
  }
  if (typeof value === 'string') return escapeLiteral(value);
  if (typeof value === 'boolean') return value ? `'true'` : `'false'`;
  if (typeof value === 'number' && Number.isFinite(value)) return `'${String(value)}'`;
  if (typeof value === 'bigint') return `'${value.toString()}'`;
  if (value instanceof Date && !Number.isNaN(value.getTime())) return `'${value.toISOString()}'`;
  throw new Error(`a parameter of this kind cannot be written as a literal: ${typeof value}`);
}
