import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { MCP_PATH } from '../http/raw-form-routes';

/**
 * `/mcp` as an OAuth 2.1 resource server (docs/mcp.md, docs/security.md): the protected-resource
 * metadata (RFC 9728) and the bearer challenge (RFC 6750) that points to it. Pure.
 */

/** Where clients reach Warden: PUBLIC_URL, else the origin the request was made to. */
export function mcpBaseUrl(
  config: Pick<AppConfig, 'PUBLIC_URL'>,
  request: Pick<FastifyRequest, 'protocol' | 'host'>,
): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/** The metadata document's URL. */
export function metadataUrl(base: string): string {
  return `${base}/.well-known/oauth-protected-resource`;
}

/** The protected-resource metadata of `/mcp`. */
export function protectedResource(
  base: string,
  config: Pick<AppConfig, 'OIDC_ISSUER_URL'>,
): Record<string, unknown> {
  return {
    resource: `${base}${MCP_PATH}`,
    // Warden's API tokens are issued by Warden itself (the CLI); the identity provider that signs
    // people in to the console is named where there is one.
    ...(config.OIDC_ISSUER_URL ? { authorization_servers: [config.OIDC_ISSUER_URL] } : {}),
    bearer_methods_supported: ['header'],
    scopes_supported: ['agents.operate'],
    resource_name: 'Warden',
    resource_documentation: `${base}/api/docs`,
  };
}

/** A quoted-string of RFC 9110: backslash and double quote escaped, control characters dropped. */
function quoted(value: string): string {
  const printable = [...value].filter((c) => c >= ' ' && c !== '\u007f').join('');
  return `"${printable.replace(/["\\]/g, '\\$&')}"`;
}

/** `WWW-Authenticate: Bearer resource_metadata="…"[, error="…"][, scope="…"]`. */
export function bearerChallenge(
  base: string,
  problem: { error?: 'invalid_token' | 'insufficient_scope'; scope?: string },
): string {
  const parts = [`resource_metadata=${quoted(metadataUrl(base))}`];
  if (problem.error) parts.push(`error=${quoted(problem.error)}`);
  if (problem.scope) parts.push(`scope=${quoted(problem.scope)}`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * Whether a request's `Origin` (a browser's) is Warden's own: a page of another site must not reach
 * `/mcp` through a browser, even one that would need the caller's token (the MCP transport's DNS
 * rebinding rule). No Origin (every MCP client outside a browser) passes.
 */
export function originAllowed(origin: string | undefined, base: string): boolean {
  if (origin === undefined) return true;
  try {
    return new URL(origin).origin === new URL(base).origin;
  } catch {
    return false;
  }
}
