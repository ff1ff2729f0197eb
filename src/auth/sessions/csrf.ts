import { timingSafeEqual } from 'node:crypto';

/**
 * What a request made with the session cookie must show before it may change anything
 * (docs/security.md): the custom header `X-Warden-CSRF` with the session's own token (which only
 * the console's own script reads, from GET /api/me), and an Origin equal to PUBLIC_URL. Another
 * site's page can make the browser send the cookie, but not set a custom header without a CORS
 * preflight Warden never grants, nor forge its Origin. The strict application/json check on the
 * body is the parser's (json-body.parser.ts). Pure.
 */
export const CSRF_HEADER = 'x-warden-csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CsrfInput {
  method: string;
  origin: string | undefined;
  csrfHeader: string | undefined;
}

/** Why the request is refused as a possible cross-site request, or null. */
export function csrfProblem(
  request: CsrfInput,
  session: { csrfToken: string; publicOrigin: string },
): string | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  if (request.origin !== session.publicOrigin) {
    return `a request that changes something with the console's session must come from ${session.publicOrigin} (Origin ${request.origin === undefined ? 'missing' : 'differs'})`;
  }
  if (!request.csrfHeader || !sameText(request.csrfHeader, session.csrfToken)) {
    return "a request that changes something with the console's session needs the X-Warden-CSRF header with the session's token (from GET /api/me)";
  }
  return null;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
