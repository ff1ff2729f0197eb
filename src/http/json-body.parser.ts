import { UnsupportedMediaTypeException } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readJsonBody, SEND_JSON } from './json-body';
import { MCP_PATH, RAW_FORM_ROUTES } from './raw-form-routes';

/**
 * The API's only body parsers (docs/api.md). A request with a bearer token may send its JSON with any
 * content type: the set-up command users copy, `curl -X PUT … -d '{…}'`, sends it form-encoded.
 * That is safe from CSRF: another site's page cannot make a browser send an Authorization header
 * without a CORS preflight, which Warden does not allow. Any other request (the console's cookie
 * sessions, later) must say `application/json`, which needs that preflight too, where a cross-site
 * form could send the rest. Either way readJsonBody checks the body (depth, refused keys, text)
 * before the guard, the pipes or class-transformer see it, and Fastify's body limit applies.
 * The one exception: a form body sent to one of RAW_FORM_ROUTES reaches its handler as its bytes.
 */
export function useJsonBodies(fastify: FastifyInstance): void {
  // A bearer request's body is read as JSON whatever its Content-Type says, also one that is no
  // media type at all (`json`, `text/plain;;`), which Fastify would refuse with a 415 before any
  // parser: such a request is parsed as the JSON it is taken to be.
  fastify.addHook('onRequest', async (request) => {
    if (request.headers['content-type'] !== undefined && hasBearerToken(request)) {
      request.headers['content-type'] = 'application/json';
    }
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    if (isMcp(request)) {
      done(null, text);
      return;
    }
    done(null, readJsonBody(text as string, { lenient: hasBearerToken(request) }));
  });
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    (request, bytes, done) => {
      if (RAW_FORM_ROUTES.includes(request.url.split('?')[0]) && !hasBearerToken(request)) {
        done(null, bytes);
        return;
      }
      done(null, anyOtherBody(request, (bytes as Buffer).toString('utf8')));
    },
  );
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (request, text, done) => {
    if (isMcp(request)) {
      done(null, text);
      return;
    }
    done(null, anyOtherBody(request, text as string));
  });
}

/** A body of any type but JSON: JSON all the same from a bearer request, else refused (415). */
function anyOtherBody(request: FastifyRequest, text: string): unknown {
  if (!hasBearerToken(request)) {
    const type = request.headers['content-type'];
    throw new UnsupportedMediaTypeException(
      type === undefined
        ? `a body without a content type is not accepted: ${SEND_JSON}`
        : `the content type ${type.slice(0, 100)} is not accepted: ${SEND_JSON}`,
    );
  }
  return readJsonBody(text, { lenient: true });
}

/** The MCP endpoint takes its body as text: the MCP SDK reads it (and answers a bad one in JSON-RPC). */
function isMcp(request: FastifyRequest): boolean {
  return request.url.split('?')[0] === MCP_PATH;
}

/** Whether the request says it carries a bearer token; the guard checks the token itself. */
function hasBearerToken(request: FastifyRequest): boolean {
  return /^bearer\s/i.test(request.headers.authorization ?? '');
}
