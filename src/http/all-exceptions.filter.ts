import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { SEND_JSON } from './json-body';
import { DomainError, DomainErrorCode } from '../common/domain-error';

const STATUS_OF: Record<DomainErrorCode, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_many: 429,
  unavailable: 503,
};

/**
 * node-postgres's pool found no free connection within `connectionTimeoutMillis`
 * (database.options.ts): a burst, not a fault, so the caller is told to try again.
 */
const POOL_TIMEOUT = 'timeout exceeded when trying to connect';
/** Seconds a caller waits before trying again after a busy answer. */
const BUSY_RETRY_AFTER_S = 1;

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  correlation_id?: string;
}

/**
 * Every error leaves as `{statusCode, error, message}`. Client errors say what was wrong; anything
 * unexpected is a 500 that quotes a correlation id (the request id in the logs) and nothing else.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const body = this.toBody(exception, String(request.id));
    if (body.statusCode >= 500) {
      this.logger.error(
        { err: exception, correlation_id: body.correlation_id },
        'unexpected error',
      );
    }
    if (exception instanceof DomainError && exception.code === 'unauthenticated') {
      void reply.header('WWW-Authenticate', 'Bearer realm="warden"');
    }
    if (isPoolTimeout(exception)) void reply.header('Retry-After', String(BUSY_RETRY_AFTER_S));
    void reply.status(body.statusCode).send(body);
  }

  toBody(exception: unknown, requestId: string): ErrorBody {
    if (exception instanceof DomainError) {
      const domain = body(STATUS_OF[exception.code], exception.message);
      return exception.label ? { ...domain, error: exception.label } : domain;
    }
    if (fastifyCode(exception) === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      // Fastify's own refusal of a Content-Type header that is no media type at all (`json`).
      return body(415, `the Content-Type header is not a media type: ${SEND_JSON}`);
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const message =
        typeof response === 'string'
          ? response
          : ((response as { message?: string | string[] }).message ?? exception.message);
      return body(status, Array.isArray(message) ? message.join('; ') : message);
    }
    if (isPoolTimeout(exception)) {
      // Nothing was done: the request never reached the database.
      return body(
        503,
        `Warden is busy (every database connection is in use): nothing was changed, try again in ${BUSY_RETRY_AFTER_S} s`,
      );
    }
    // Fastify's own client errors (body too large, malformed JSON, unsupported media type).
    const status = (exception as { statusCode?: unknown } | null)?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return body(status, clientMessage(exception as Error));
    }
    return {
      ...body(HttpStatus.INTERNAL_SERVER_ERROR, `internal error; correlation id ${requestId}`),
      correlation_id: requestId,
    };
  }
}

function isPoolTimeout(exception: unknown): boolean {
  return exception instanceof Error && exception.message === POOL_TIMEOUT;
}

function body(statusCode: number, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** The code of a Fastify error, which Nest's adapter hands on wrapped in an HttpException. */
function fastifyCode(exception: unknown): unknown {
  const error = exception as { code?: unknown; cause?: { code?: unknown } } | null;
  return error?.code ?? error?.cause?.code;
}

function clientMessage(error: Error): string {
  return error instanceof SyntaxError
    ? `the request body is not valid JSON: ${error.message}`
    : error.message;
}
