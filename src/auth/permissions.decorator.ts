import { applyDecorators, SetMetadata } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtension,
  ApiForbiddenResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Permission } from './permission';

export const ACCESS_KEY = 'warden:access';

export type RouteAccess = { public: true } | { signedIn: true } | { anyOf: readonly Permission[] };

/**
 * Who may call a route: a caller holding any one of the permissions. The global PermissionsGuard
 * reads it; a route without it is closed. It also documents the route's security in OpenAPI.
 */
export function Permissions(
  first: Permission,
  ...more: Permission[]
): MethodDecorator & ClassDecorator {
  const anyOf = [first, ...more];
  return applyDecorators(
    SetMetadata(ACCESS_KEY, { anyOf } satisfies RouteAccess),
    ApiBearerAuth(),
    ApiExtension('x-permissions', anyOf),
    ApiUnauthorizedResponse({ description: 'missing, unknown or revoked token' }),
    ApiForbiddenResponse({ description: `needs one of: ${anyOf.join(', ')}` }),
  );
}

/**
 * Any authenticated caller, whatever their permissions: who am I, sign out. A person whose groups
 * map to nothing must still learn so, and be able to leave.
 */
export function SignedIn(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ACCESS_KEY, { signedIn: true } satisfies RouteAccess),
    ApiBearerAuth(),
    ApiExtension('x-permissions', []),
    ApiUnauthorizedResponse({ description: 'missing, unknown or revoked token or session' }),
  );
}

/** Open to anyone: health probes, metrics. Nothing else. */
export const Public = () => SetMetadata(ACCESS_KEY, { public: true } satisfies RouteAccess);
