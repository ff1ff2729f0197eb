import { REDACTED, scrubText } from '../../logging/scrub-secrets';

/**
 * Nothing secret goes to a model provider: no Warden token, no bearer credential, no provider key,
 * and none of the values of the variables this call reads (the provider key, the screen host's
 * token). Text Warden writes into a request passes through `redact`; the finished request is then
 * searched once more by `findSecret` before it may leave.
 */
export function redactor(secrets: ReadonlyArray<string | undefined>): (text: string) => string {
  const values = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  return (text: string) => {
    let out = scrubText(text);
    for (const v of values) out = out.split(v).join(REDACTED);
    return out;
  };
}

/** The first secret value found in the serialised request, described without quoting it. */
export function findSecret(
  serialised: string,
  secrets: ReadonlyArray<{ name: string; value: string | undefined }>,
): string | null {
  for (const s of secrets) {
    if (s.value && s.value.length >= 4 && serialised.includes(s.value)) return s.name;
  }
  if (/wdn_[A-Za-z0-9_-]{16,}/.test(serialised)) return 'a Warden API token';
  return null;
}
