import { ArgumentsHost, Catch, ExceptionFilter, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuditService } from '../../audit/audit.service';
import type { Caller } from '../../auth/caller';
import { MissingPermissionException } from '../../auth/missing-permission.exception';
import { AllExceptionsFilter } from '../../http/all-exceptions.filter';
import { runRefused } from './run-admission.service';

/**
 * A run start refused for want of a permission is a refused run like the others (docs/security.md,
 * "no permission"): audited `computer_use.refused` in the token's tenant, then answered 403 as
 * every error is. The guard refuses before RunAdmission sees the request, so the start route
 * declares this filter, and it records what the guard decided. Other routes' 403s are not audited.
 */
@Injectable()
@Catch(MissingPermissionException)
export class RefusedStartFilter implements ExceptionFilter {
  private readonly answer = new AllExceptionsFilter();

  constructor(private readonly audit: AuditService) {}

  async catch(refusal: MissingPermissionException, host: ArgumentsHost): Promise<void> {
    const request = host.switchToHttp().getRequest<FastifyRequest & { user?: Caller }>();
    const caller = request.user;
    try {
      if (caller) await this.audit.record(refusedEvent(caller, refusal, request.body));
    } catch (error) {
      // As for the other refusals: no answer without the record; the catch-all answers 500.
      this.answer.catch(error, host);
      return;
    }
    this.answer.catch(refusal, host);
  }
}

/**
 * The event, shaped like RunAdmission's refusals: `{agent, goal, why, reason}`, and the permission
 * that was missing. The body was not validated (the guard runs first): agent and goal are kept
 * only when they are strings, cut to the lengths StartRunDto allows.
 */
export function refusedEvent(caller: Caller, refusal: MissingPermissionException, body: unknown) {
  const { agent, goal } = (typeof body === 'object' && body !== null ? body : {}) as Record<
    string,
    unknown
  >;
  return runRefused(caller, {
    ...(typeof agent === 'string' ? { agent: agent.slice(0, 63) } : {}),
    ...(typeof goal === 'string' ? { goal: goal.slice(0, 2000) } : {}),
    why: refusal.message,
    reason: 'no_permission',
    missing_permission: refusal.anyOf,
  });
}
