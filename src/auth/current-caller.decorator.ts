import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Caller } from './caller';

/** The authenticated caller of this request (set by PermissionsGuard). */
export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Caller =>
    context.switchToHttp().getRequest<{ user: Caller }>().user,
);
