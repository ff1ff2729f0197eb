/**
 * The API as the console calls it: with the tab's token in the Authorization header (never in a
 * URL), or, for a person signed in through the company's identity provider, with the session
 * cookie and, on every change, the session's CSRF token in X-Warden-CSRF (never both: the API
 * refuses a request with a token and the cookie). Every error is an ApiError with the API's own
 * message.
 */
import { ApiError } from './api-error';
import type { Me } from './api-types';

export { ApiError };

const TOKEN_KEY = 'warden.console.token';

/** The token of this tab; sessionStorage ends with the tab and is never sent anywhere by itself. */
export function getToken() {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string) {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function clearToken() {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** The console session's CSRF token, from GET /api/me. */
let csrfToken: string | null = null;

/** Remembers who is signed in by cookie session: their changes carry its CSRF token. */
export function setSession(me: Me | null) {
  csrfToken = me?.session?.csrf_token ?? null;
}

/** Ends the console session at Warden (the cookie is worth nothing afterwards). */
export async function signOutSession() {
  await call('/auth/logout', { method: 'POST' });
  csrfToken = null;
}

/** Fired on `window` when the API no longer accepts the token (revoked, or a typo). */
export const UNAUTHENTICATED = 'warden:unauthenticated';

/** A call to the API. `options.token`: try this token instead of the tab's (signing in). */
async function call(
  path: string,
  options: {
    method?: string;
    json?: unknown;
    accept?: string;
    signal?: AbortSignal;
    token?: string;
  },
): Promise<Response> {
  const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
  const token = options.token ?? getToken();
  const method = options.method ?? 'GET';
  if (token) headers.Authorization = `Bearer ${token}`;
  else if (csrfToken && method !== 'GET') headers['X-Warden-CSRF'] = csrfToken;
  if (options.json !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      signal: options.signal,
      cache: 'no-store',
      // A token call never sends the cookie; a session call sends nothing else.
      credentials: token ? 'omit' : 'same-origin',
      // The page's no-referrer policy would make a POST's Origin `null`; the API checks Origin
      // against its own on every change made with the cookie.
      referrerPolicy: 'same-origin',
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, 'Warden did not answer. Check the connection and try again.');
  }
  if (response.ok) return response;
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = (await response.json()) as unknown;
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
      message = body.message;
    }
  } catch {
    // Not the API's JSON error (a proxy in between): the status line says enough.
  }
  if (response.status === 401 && options.token === undefined)
    window.dispatchEvent(new CustomEvent(UNAUTHENTICATED));
  throw new ApiError(response.status, message);
}

/** A JSON call. */
export async function api<T>(
  path: string,
  options: { method?: string; json?: unknown; signal?: AbortSignal; token?: string } = {},
): Promise<T> {
  const response = await call(path, options);
  const body = (await response.json()) as unknown;
  return body as T;
}

/** A call whose answer is not JSON (a PNG, an NDJSON export). */
export async function apiBlob(
  path: string,
  options: { accept?: string; signal?: AbortSignal } = {},
) {
  return (await apiFile(path, options)).blob;
}

/** A file of the API with its response headers. */
export async function apiFile(
  path: string,
  options: { accept?: string; signal?: AbortSignal } = {},
): Promise<{ blob: Blob; headers: Headers }> {
  const response = await call(path, { accept: options.accept ?? '*/*', signal: options.signal });
  return { blob: await response.blob(), headers: response.headers };
}

/** A query string of the given values, leaving out empty ones. */
export function query(values: Record<string, string | number | null | undefined>) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
