import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { invalid } from '../../common/domain-error';

/** Deeper than any script needs (script → steps → step → action → element is five). */
export const MAX_BODY_DEPTH = 32;

/** How deeply a parsed JSON value nests, counted without recursion, stopping past `limit`. */
export function jsonDepth(value: unknown, limit = Infinity): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Refuses a request body that nests too deeply, before the validation pipe sees it:
 * class-transformer walks free-form objects (a script) recursively and would overflow the stack,
 * turning a bad request into a 500. Interceptors run before pipes.
 */
@Injectable()
export class JsonDepthInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const body = context.switchToHttp().getRequest<{ body?: unknown }>().body;
    if (jsonDepth(body, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
      throw invalid(`the body nests deeper than ${MAX_BODY_DEPTH} levels`);
    }
    return next.handle();
  }
}
