/** Creates the per-request Awilix scope (request id, anonymous principal) and disposes it in `finally`. */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { ANONYMOUS, createRequestScope, type Kernel } from '../../kernel';

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestScope(kernel: Kernel) {
  return async function requestScopeMiddleware(ctx: Context, next: Next) {
    const incoming = ctx.get('X-Request-Id');
    const requestId = SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const scope = createRequestScope(kernel.container, requestId, ANONYMOUS);
    ctx.state.scope = scope;
    try {
      await next();
    } finally {
      await scope.dispose();
    }
  };
}
