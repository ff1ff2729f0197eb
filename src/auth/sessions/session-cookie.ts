/**
 * The console's session cookie (docs/security.md): an opaque id, HttpOnly, SameSite=Lax, Path=/.
 * On https it carries the `__Host-` prefix (Secure, no Domain: only this origin ever gets it); a
 * `__Host-` cookie must be Secure, which a browser does not keep over plain http, so on a loopback
 * http PUBLIC_URL (development, tests) it has a plain name and no Secure. Pure.
 */

export const SESSION_COOKIE_SECURE = '__Host-warden_session';
export const SESSION_COOKIE_LOOPBACK = 'warden_session';
/** The sign-in under way (a random id naming the server-side state, nonce and PKCE verifier). */
export const LOGIN_COOKIE_SECURE = '__Host-warden_signin';
export const LOGIN_COOKIE_LOOPBACK = 'warden_signin';

export interface CookieNames {
  session: string;
  login: string;
  secure: boolean;
}

/** The cookie names for the console's external origin. */
export function cookieNames(publicUrl: string): CookieNames {
  const secure = publicUrl.startsWith('https:');
  return secure
    ? { session: SESSION_COOKIE_SECURE, login: LOGIN_COOKIE_SECURE, secure }
    : { session: SESSION_COOKIE_LOOPBACK, login: LOGIN_COOKIE_LOOPBACK, secure };
}

/** A Set-Cookie value; `maxAgeSeconds` 0 deletes the cookie. */
export function setCookie(
  name: string,
  value: string,
  options: { secure: boolean; maxAgeSeconds?: number },
): string {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  return parts.join('; ');
}

/**
 * The value of cookie `name` in a Cookie header, or undefined. Warden's values are base64url, so
 * a value with anything else in it is treated as absent; a name sent twice is refused (undefined),
 * so that a cookie planted next to the real one cannot be picked instead of it.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const values = header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${name}=`))
    .map((pair) => pair.slice(name.length + 1));
  if (values.length !== 1) return undefined;
  return /^[A-Za-z0-9_-]{1,200}$/.test(values[0]) ? values[0] : undefined;
}

/** Whether a Cookie header names the cookie at all (whatever its value). */
export function hasCookie(header: string | undefined, name: string): boolean {
  return !!header && header.split(';').some((pair) => pair.trim().startsWith(`${name}=`));
}
