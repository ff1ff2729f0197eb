/** TypeORM answers `UPDATE … RETURNING` on PostgreSQL as `[rows, rowCount]`; this is the rows. */
export function updatedRows<T>(result: unknown): T[] {
  return (result as [T[], number])[0];
}
