import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { DomainError, forbidden, invalid } from '../common/domain-error';
import { AppConfig } from '../config/app-config';
import type { Caller } from './caller';
import { MissingPermissionException } from './missing-permission.exception';
import { ACCESS_KEY, RouteAccess } from './permissions.decorator';
import { CSRF_HEADER, csrfProblem } from './sessions/csrf';
import { CookieNames, cookieNames, hasCookie, readCookie } from './sessions/session-cookie';
import { SessionsService } from './sessions/sessions.service';

/** What the guard leaves on a request made with the console's session. */
export interface RequestSession {
  csrfToken: string;
}

export type AuthRequest = FastifyRequest & { user?: Caller; wardenSession?: RequestSession };

/**
 * The one guard: authenticates the caller (401), by bearer token or, when sign-in through the
 * identity provider is configured, by the console's session cookie (never both: 400), checks a
 * cookie request that changes something against CSRF (403), then the route's @Permissions (403).
 * A route that declares nothing is closed, so a forgotten decorator fails safe.
 */
@Injectable()
export class PermissionsGuard extends AuthGuard('bearer') {
  private readonly cookies: CookieNames | null;

  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
    private readonly config: AppConfig,
  ) {
    super();
    this.cookies =
      config.OIDC_ISSUER_URL !== undefined && config.PUBLIC_URL !== undefined
        ? cookieNames(config.PUBLIC_URL)
        : null;
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(ACCESS_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!access) throw forbidden('this route declares no permission, so it is closed');
    if ('public' in access) return true;

    const request = context.switchToHttp().getRequest<AuthRequest>();
    const caller = await this.authenticate(context, request);
    if ('anyOf' in access && !access.anyOf.some((p) => caller.permissions.has(p))) {
      throw new MissingPermissionException(access.anyOf);
    }
    return true;
  }

  private async authenticate(context: ExecutionContext, request: AuthRequest): Promise<Caller> {
    const cookie = request.headers.cookie;
    const sessionCookie = this.cookies && hasCookie(cookie, this.cookies.session);
    if (sessionCookie && request.headers.authorization !== undefined) {
      throw invalid(
        "send either a bearer token or the console's session cookie, not both: Warden never mixes two credentials",
      );
    }
    if (this.cookies && sessionCookie) {
      const value = readCookie(cookie, this.cookies.session);
      const session = value ? await this.sessions.authenticate(value) : null;
      if (!session) {
        throw new DomainError(
          'unauthenticated',
          'the console session is unknown or has ended: sign in again',
        );
      }
      const problem = csrfProblem(
        {
          method: request.method,
          origin: request.headers.origin,
          csrfHeader: oneHeader(request.headers[CSRF_HEADER]),
        },
        { csrfToken: session.csrfToken, publicOrigin: this.config.PUBLIC_URL! },
      );
      if (problem) throw forbidden(problem);
      request.user = session.caller;
      request.wardenSession = { csrfToken: session.csrfToken };
      return session.caller;
    }
    // passport-http-bearer also reads tokens from the query and the body; Warden does not, as
    // URLs end up in logs and proxies.
    const query = request.query as Record<string, unknown> | undefined;
    const body = request.body as Record<string, unknown> | undefined;
    if (query?.access_token !== undefined || (isObject(body) && body.access_token !== undefined)) {
      throw new DomainError('unauthenticated', 'send the token in the Authorization header only');
    }
    await super.canActivate(context);
    const caller = request.user;
    if (!caller) throw new DomainError('unauthenticated', 'a valid bearer token is required');
    return caller;
  }

  override handleRequest<TUser = Caller>(err: unknown, user: unknown, info: unknown): TUser {
    if (err) throw err instanceof Error ? err : new Error('bearer authentication failed');
    if (!user) {
      const invalidToken = typeof info === 'string' && info.includes('invalid_token');
      throw new DomainError(
        'unauthenticated',
        invalidToken
          ? 'the bearer token is unknown or revoked'
          : 'a bearer token is required (Authorization: Bearer <token>)',
      );
    }
    return user as TUser;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function oneHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}
