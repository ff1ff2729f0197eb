import { bearerChallenge, mcpBaseUrl, originAllowed, protectedResource } from './mcp-auth';

describe('/mcp as a resource server', () => {
  it('points the challenge to the metadata, with the error and scope where there are some', () => {
    expect(bearerChallenge('https://w.example', {})).toBe(
      'Bearer resource_metadata="https://w.example/.well-known/oauth-protected-resource"',
    );
    expect(
      bearerChallenge('https://w.example', {
        error: 'insufficient_scope',
        scope: 'agents.operate',
      }),
    ).toBe(
      'Bearer resource_metadata="https://w.example/.well-known/oauth-protected-resource", error="insufficient_scope", scope="agents.operate"',
    );
  });

  it('keeps a Host header from breaking out of the quoted string', () => {
    const challenge = bearerChallenge('http://evil"\r\nX-Injected: 1\\', {});
    expect(challenge).not.toMatch(/[\r\n]/);
    expect(challenge).toBe(
      'Bearer resource_metadata="http://evil\\"X-Injected: 1\\\\/.well-known/oauth-protected-resource"',
    );
  });

  it('names PUBLIC_URL before the request origin, and the identity provider only where there is one', () => {
    const request = { protocol: 'http' as const, host: '127.0.0.1:3000' };
    expect(mcpBaseUrl({ PUBLIC_URL: 'https://w.example/' }, request)).toBe('https://w.example');
    expect(mcpBaseUrl({ PUBLIC_URL: undefined }, request)).toBe('http://127.0.0.1:3000');
    expect(protectedResource('https://w.example', { OIDC_ISSUER_URL: undefined })).toEqual({
      resource: 'https://w.example/mcp',
      bearer_methods_supported: ['header'],
      scopes_supported: ['agents.operate'],
      resource_name: 'Warden',
      resource_documentation: 'https://w.example/api/docs',
    });
    expect(
      protectedResource('https://w.example', { OIDC_ISSUER_URL: 'https://idp.example' })
        .authorization_servers,
    ).toEqual(['https://idp.example']);
  });

  it("refuses a browser's Origin of another site, and passes a request without one", () => {
    expect(originAllowed(undefined, 'https://w.example')).toBe(true);
    expect(originAllowed('https://w.example', 'https://w.example')).toBe(true);
    expect(originAllowed('https://evil.example', 'https://w.example')).toBe(false);
    expect(originAllowed('https://w.example:8443', 'https://w.example')).toBe(false);
    expect(originAllowed('null', 'https://w.example')).toBe(false);
  });
});
