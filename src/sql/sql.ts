import type { DataSource } from 'typeorm';

/** TypeORM answers `UPDATE … RETURNING` on PostgreSQL as `[rows, rowCount]`; this is the rows. */
export function updatedRows<T>(result: unknown): T[] {
  return (result as [T[], number])[0];
}

/**
 * A condition that is always true and makes the statement's own transaction commit without waiting
 * for its WAL to reach the disk (`synchronous_commit` off, for this transaction only). Only for
 * single statements whose loss in a PostgreSQL crash is harmless: bookkeeping before a durable
 * write (which flushes all WAL before it, so they are durable by the time anything depends on
 * them), or after the step's effect was recorded durably (timings, the lease). Saves a disk flush
 * each; the writes that guard an effect (`sending`, `held`, the audit trail) stay durable.
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
