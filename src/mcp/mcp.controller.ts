import { All, Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Public } from '../auth/permissions.decorator';
import { TokensService } from '../auth/tokens.service';
import { AppConfig } from '../config/app-config';
import { MCP_PATH } from '../http/raw-form-routes';
import { bearerChallenge, mcpBaseUrl, originAllowed, protectedResource } from './mcp-auth';
import { McpEndpoint } from './mcp-endpoint.service';

/** The permission every tool needs (docs/mcp.md). */
const OPERATE = 'agents.operate';

/**
 * `/mcp` (docs/mcp.md): Warden's bearer tokens as an OAuth 2.1 resource server takes them. No valid
 * token: 401 with `WWW-Authenticate: Bearer resource_metadata="…"` (RFC 9728); a token without
 * agents.operate: 403 `insufficient_scope`. Otherwise the MCP SDK serves the exchange for the caller.
 * Outside the OpenAPI document: its body is JSON-RPC, described by the MCP specification.
 */
@ApiExcludeController()
@Controller()
export class McpController {
  constructor(
    private readonly config: AppConfig,
    private readonly tokens: TokensService,
    private readonly endpoint: McpEndpoint,
  ) {}

  @Get(['.well-known/oauth-protected-resource', '.well-known/oauth-protected-resource/mcp'])
  @Public()
  metadata(@Req() request: FastifyRequest): Record<string, unknown> {
    return protectedResource(mcpBaseUrl(this.config, request), this.config);
  }

  @All(MCP_PATH.slice(1))
  @Public()
  async serve(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const base = mcpBaseUrl(this.config, request);
    if (!originAllowed(request.headers.origin, base)) {
      await reply.status(403).send({
        statusCode: 403,
        error: 'Forbidden',
        message: `the Origin ${String(request.headers.origin).slice(0, 100)} is not ${base}: /mcp takes no request from another site's page`,
      });
      return;
    }
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const caller = token ? await this.tokens.authenticate(token) : null;
    if (!caller) {
      const challenge = bearerChallenge(base, token ? { error: 'invalid_token' } : {});
      await reply
        .status(401)
        .header('WWW-Authenticate', challenge)
        .send({
          statusCode: 401,
          error: 'Unauthorized',
          message: token
            ? 'the bearer token is unknown or revoked'
            : 'send a Warden API token as Authorization: Bearer <token>',
        });
      return;
    }
    if (!caller.permissions.has(OPERATE)) {
      const challenge = bearerChallenge(base, { error: 'insufficient_scope', scope: OPERATE });
      await reply
        .status(403)
        .header('WWW-Authenticate', challenge)
        .send({
          statusCode: 403,
          error: 'Forbidden',
          message: `this needs the permission ${OPERATE}`,
        });
      return;
    }
    const answer = await this.endpoint.fetch(toWebRequest(request, base), caller);
    reply.status(answer.status);
    answer.headers.forEach((value, name) => {
      void reply.header(name, value);
    });
    await reply.send(answer.body ? Readable.fromWeb(answer.body) : '');
  }
}

/** The Fastify request as the web-standard Request the MCP SDK serves; its body as it arrived. */
function toWebRequest(request: FastifyRequest, base: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const body = request.body;
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && body !== undefined;
  return new Request(`${base}${request.url}`, {
    method: request.method,
    headers,
    ...(hasBody ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
}
