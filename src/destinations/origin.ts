/**
 * Where a secret may go: an origin (`https://host:port`, the WHATWG URL origin, so the default port
 * is left out and the host is lower-case). Plain `http://` only on loopback (docs/screen-host.md).
 */

/** 127.0.0.0/8, ::1 and `localhost`: the only hosts a secret may reach over plain http. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * The origin of a URL a secret is sent to, or the reason it may not receive one: https anywhere,
 * http on loopback only, no user or password in it.
 */
export function destinationOrigin(value: string): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `${JSON.stringify(value.slice(0, 200))} is not a URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { problem: `${url.protocol}// is not https://` };
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    return {
      problem: `plain http:// is allowed only on loopback (127.0.0.1, ::1, localhost), not for ${url.hostname}: use https://`,
    };
  }
  if (url.username || url.password) return { problem: 'a URL with a user or password in it' };
  return { origin: url.origin };
}

/**
 * An origin as the operator writes it in a grant: a URL with nothing after the host and port
 * (a trailing `/` is fine). Throws with the reason otherwise.
 */
export function grantOrigin(value: string): string {
  const checked = destinationOrigin(value);
  if ('problem' in checked) throw new Error(`--to: ${checked.problem}`);
  const url = new URL(value);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new Error(
      `--to must be an origin (scheme, host and port, like https://host.internal:8443), not ${JSON.stringify(value)}`,
    );
  }
  return checked.origin;
}
