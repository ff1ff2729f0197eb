/**
 * Patterns of secrets that must never reach a log line, wherever they hide (a URL, a message,
 * an error): Warden API tokens, bearer credentials, and model provider keys.
 */
const SECRET_PATTERNS: RegExp[] = [
  /wdn_[A-Za-z0-9_-]{16,}/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\bsk-(ant-)?[A-Za-z0-9_-]{16,}/g,
  /([?&](access_token|token|api_key|apikey|key|password|secret)=)[^&#\s]*/gi,
];

export const REDACTED = '[redacted]';

export function scrubText(text: string): string {
  return SECRET_PATTERNS.reduce(
    (out, pattern) =>
      out.replace(pattern, (match: string, prefix?: string) =>
        // The query-string pattern keeps its `?name=` part so the log still says which field it was.
        typeof prefix === 'string' && /^[?&]/.test(prefix) ? prefix + REDACTED : REDACTED,
      ),
    text,
  );
}

/** A copy of a log object with every token-like string replaced; bounded depth, no cycles. */
export function scrubSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (value instanceof Error) {
    return {
      type: value.name,
      message: scrubText(value.message),
      stack: value.stack && scrubText(value.stack),
    };
  }
  if (Array.isArray(value)) return value.map((v) => scrubSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubSecrets(v, depth + 1);
  return out;
}
