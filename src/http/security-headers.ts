import type { FastifyInstance, FastifyReply } from 'fastify';

/** Sets the headers on one answer: for what answers before any hook runs (the router's refusals). */
export function withSecurityHeaders(reply: FastifyReply): FastifyReply {
  return reply.header('X-Content-Type-Options', 'nosniff');
}

/**
 * Headers every answer carries, whatever answers it (a route, an error, the router's own refusal,
 * a 404, the console's files): `X-Content-Type-Options: nosniff`, so a browser never reads an
 * answer as another type than it says (a JSON error quoting a caller's text taken for HTML).
 */
export function useSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    withSecurityHeaders(reply);
    done(null, payload);
  });
}
