/**
 * Secrets never enter Warden's configuration: a screen host's token or a model key is named by an
 * environment variable (`screen_token_env`, `api_key_env`). This finds what looks like a secret
 * anyway, at any depth of a body, so it is refused before it can be stored, diffed or audited.
 */

/** Words that make a field name a secret's name (`password`, `api_key`, `clientSecret`, `token`). */
const SECRET_WORDS = new Set([
  'token',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'credential',
  'credentials',
  'key',
  'apikey',
  'bearer',
  'cookie',
]);

/** Values that are secrets whatever field holds them: Warden tokens, provider keys, credentials. */
const SECRET_VALUES: RegExp[] = [
  /wdn_[A-Za-z0-9_-]{16,}/,
  /\bsk-(ant-)?[A-Za-z0-9_-]{16,}/,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /[?&](access_token|token|api_key|apikey|key|password|secret)=/i,
  /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]*@/i,
];

/** The words of a field name: `apiKey`, `api_key`, `API-KEY` → `api`, `key`. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** A field named like a secret. A name ending in `_env` names a variable, which is what we want. */
export function isSecretName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 0 || words[words.length - 1] === 'env') return false;
  return words.some((w) => SECRET_WORDS.has(w));
}

export function looksLikeSecretValue(value: string): boolean {
  return SECRET_VALUES.some((pattern) => pattern.test(value));
}

export interface SecretFinding {
  path: string;
  kind: 'name' | 'value';
}

/**
 * Every place in `value` that holds a secret, by path (`agents.sap-orders.planner.api_key`).
 * `mapPaths` are objects whose keys are names chosen by the admin (agent names), not field names:
 * their keys are not judged, their values are.
 */
export function findSecrets(
  value: unknown,
  mapPaths: ReadonlySet<string> = new Set(),
  path = '',
  depth = 0,
): SecretFinding[] {
  if (depth > 16) return [];
  if (typeof value === 'string') {
    return looksLikeSecretValue(value) ? [{ path: path || '(body)', kind: 'value' }] : [];
  }
  if (Array.isArray(value)) {
    return value.flatMap((item, i) =>
      findSecrets(item, mapPaths, join(path, String(i)), depth + 1),
    );
  }
  if (value === null || typeof value !== 'object') return [];
  const isMap = mapPaths.has(path);
  return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => {
    const here = join(path, key);
    const own: SecretFinding[] = !isMap && isSecretName(key) ? [{ path: here, kind: 'name' }] : [];
    return own.length > 0 ? own : findSecrets(item, mapPaths, here, depth + 1);
  });
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
