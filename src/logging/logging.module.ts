import { Module, RequestMethod } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../config/app-config';
import { scrubSecrets, scrubText } from './scrub-secrets';

/** Structured JSON logs; headers that carry credentials are dropped and token-like text is scrubbed. */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        forRoutes: [{ path: '{*splat}', method: RequestMethod.ALL }],
        pinoHttp: {
          level: config.LOG_LEVEL,
          // The request id Fastify gave the request: error responses quote it as the correlation id.
          genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id?: string }).id ?? '',
          redact: {
            paths: [
              'req.headers.authorization',
              'req.headers.cookie',
              'req.headers["x-api-key"]',
              'res.headers["set-cookie"]',
              '*.token',
              '*.password',
              '*.api_key',
              '*.secret',
            ],
            censor: '[redacted]',
          },
          serializers: {
            req: (req: {
              id: string;
              method: string;
              url: string;
              headers: Record<string, unknown>;
            }) => ({
              id: req.id,
              method: req.method,
              url: scrubText(req.url),
              headers: req.headers,
            }),
            // The standard serializer reports a null status for Fastify's raw response; read it from raw.
            res: (res: { statusCode: number | null; raw?: { statusCode: number } }) => ({
              statusCode: res.raw?.statusCode ?? res.statusCode,
            }),
          },
          formatters: {
            // pino-http's `res` is the raw response (its socket, the server: thousands of
            // objects, about 3 ms of CPU per request to walk); the `res` serializer keeps only
            // its status code, so it is left out of the walk.
            log: ({ res, ...rest }: Record<string, unknown>) => {
              const scrubbed = scrubSecrets(rest) as Record<string, unknown>;
              return res === undefined ? scrubbed : { ...scrubbed, res };
            },
          },
          hooks: {
            logMethod(args: unknown[], method: (...a: unknown[]) => void) {
              method.apply(
                this,
                args.map((a) => (typeof a === 'string' ? scrubText(a) : a)),
              );
            },
          },
        },
      }),
    }),
  ],
})
export class LoggingModule {}
