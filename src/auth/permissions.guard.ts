import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { DomainError, forbidden } from '../common/domain-error';
import type { Caller } from './caller';
import { MissingPermissionException } from './missing-permission.exception';
import { ACCESS_KEY, RouteAccess } from './permissions.decorator';

type AuthRequest = FastifyRequest & { user?: Caller };

/**
 * The one guard: authenticates the bearer token (401) and checks the route's @Permissions (403).
 * A route that declares nothing is closed, so a forgotten decorator fails safe.
 */
@Injectable()
export class PermissionsGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(ACCESS_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!access) throw forbidden('this route declares no permission, so it is closed');
    if ('public' in access) return true;

    const request = context.switchToHttp().getRequest<AuthRequest>();
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
    if (!access.anyOf.some((p) => caller.permissions.has(p))) {
      throw new MissingPermissionException(access.anyOf);
    }
    return true;
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
