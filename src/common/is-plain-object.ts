/** Not null and not a list: a JSON object, as a request body or a configuration holds it. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
