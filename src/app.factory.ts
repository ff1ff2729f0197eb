import { ValidationPipe } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { AppModule } from './app.module';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import type { AppConfig } from './config/app-config';
import { useJsonBodies } from './http/json-body.parser';
import { useSecurityHeaders, withSecurityHeaders } from './http/security-headers';
import { MetricsService } from './metrics/metrics.service';
import { buildApiDocument } from './openapi/api-document';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Builds the API exactly as `main.ts` serves it. e2e tests call this too, and may wrap the app's
 * module in one of their own (to add a route that shows how the pipeline treats it).
 */
export async function createApp(
  config?: AppConfig,
  rootModule: DynamicModule = AppModule.forRoot(config),
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // `/console/` and `/api/approvals/` are the pages people type: one slash more is the same route.
    routerOptions: { ignoreTrailingSlash: true },
    // One id per request: the log lines carry it and a 500 quotes it as the correlation id.
    genReqId: (req: IncomingMessage) => {
      const id = randomUUID();
      (req as IncomingMessage & { id?: string }).id = id;
      return id;
    },
    // What Fastify's router refuses before any route runs (a path that does not decode, a path
    // parameter over 100 characters) leaves in the same shape as every other error.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const body = new AllExceptionsFilter().toBody(error, String(request.id));
      // Answered before any hook runs: the headers every answer carries are set here.
      void withSecurityHeaders(reply).status(body.statusCode).send(body);
    },
  });
  // JSON only, read and checked by Warden's own parsers; none of the form parsers Nest would add.
  useJsonBodies(adapter.getInstance());
  useSecurityHeaders(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      // No implicit conversion: a body with `"amount": "3"` is refused, not coerced. Query DTOs
      // convert their numbers explicitly with @Type.
      transform: true,
    }),
  );
  app.useGlobalFilters(new AllExceptionsFilter());
  app.enableShutdownHooks();

  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(MetricsService);
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  SwaggerModule.setup('api/docs', app, () => buildApiDocument(app), {
    jsonDocumentUrl: 'api/docs-json',
  });
  return app;
}
