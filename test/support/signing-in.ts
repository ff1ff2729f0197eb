/**
 * Signing a person in through the test OpenID provider without a browser: the redirects of the
 * authorization code flow followed by hand, with one cookie jar (the API and the provider both
 * live on 127.0.0.1, so a browser would share their cookies by host the same way).
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((p) => p.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const gone = attributes.some(
        (a) =>
          /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()),
      );
      if (gone || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

async function go(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
  });
  jar.take(response);
  return response;
}

/**
 * Signs `login` in at the API (through the provider's own login page) and answers the jar holding
 * the session cookie, and where the API sent the browser in the end.
 */
export async function signInByHttp(
  apiUrl: string,
  login: string,
  jar = new CookieJar(),
): Promise<{ jar: CookieJar; landed: string }> {
  let response = await go(jar, `${apiUrl}/auth/login`);
  let url = `${apiUrl}/auth/login`;
  for (let hops = 0; hops < 20; hops++) {
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url).href;
      if (next.startsWith(apiUrl) && !next.includes('/auth/callback')) {
        return { jar, landed: next.slice(apiUrl.length) };
      }
      url = next;
      response = await go(jar, url);
      continue;
    }
    if (response.status === 200) {
      const html = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form on ${url}: ${html.slice(0, 300)}`);
      const fields = new URLSearchParams({ prompt: 'login', login, password: 'any' });
      if (!html.includes('name="login"')) fields.set('prompt', 'consent');
      url = new URL(action, url).href;
      response = await go(jar, url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: fields.toString(),
      });
      continue;
    }
    throw new Error(`sign-in stopped at ${url}: ${response.status} ${await response.text()}`);
  }
  throw new Error('sign-in: too many redirects');
}
