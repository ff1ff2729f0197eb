import { ENV_NAME_MESSAGE, ENV_NAME_PATTERN } from '../../config/names';

/**
 * Bounds of a channel's fields; an agent's config (computer-use/settings/config-bounds.ts) takes
 * them as its own.
 */
export const CHANNEL_BOUNDS = {
  url: 2048,
  notify_to: 20,
  email: 254,
} as const;

/** A required field naming an environment variable, as every kind reads one. */
export function envName(
  raw: unknown,
  path: string,
  field: string,
  problems: string[],
): string | null {
  if (raw === undefined || raw === null) {
    problems.push(`${path} is required`);
    return null;
  }
  if (typeof raw !== 'string' || !ENV_NAME_PATTERN.test(raw)) {
    problems.push(`${path.slice(0, path.length - field.length)}${ENV_NAME_MESSAGE(field)}`);
    return null;
  }
  return raw;
}

/** An optional field naming an environment variable: left out (or null), undefined. */
export function optionalEnvName(
  raw: unknown,
  path: string,
  field: string,
  problems: string[],
): string | null | undefined {
  return raw === undefined || raw === null ? undefined : envName(raw, path, field, problems);
}
