/**
 * Per-route authentication: runs the `auth.credential` bail hook with the methods the route accepts,
 * then `auth.principal` to complete the caller (permissions), and registers `principal` in the scope.
 * A rejection is final (AuthX semantics); if every method abstains the caller is anonymous.
 */
import { asValue, type AwilixContainer } from 'awilix';
import type { Context, Next } from 'koa';
import { ANONYMOUS, KernelError, type Cradle, type Kernel, type Principal } from '../../kernel';
import { authCredential, authPrincipal } from '../hooks';
import type { AuthRequest, RouteDefinition } from '../types';

export function authRequestOf(ctx: Context, route: RouteDefinition & { id: string }): AuthRequest {
  const body = ctx.request.body;
  return {
    method: ctx.method,
    path: ctx.path,
    ip: ctx.ip,
    headers: ctx.headers,
    query: ctx.query,
    body: body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {},
    accepts: route.auth ?? [],
    route: route.id,
    cookie: (name) => ctx.cookies.get(name),
  };
}

export function authenticate(kernel: Kernel, route: RouteDefinition & { id: string }) {
  return async function authenticateMiddleware(ctx: Context, next: Next) {
    const req = authRequestOf(ctx, route);
    let principal: Principal = ANONYMOUS;
    if (req.accepts.length) {
      const result = await kernel.hooks.run(authCredential, req);
      if (result && 'reject' in result) {
        throw new KernelError('E_UNAUTHENTICATED', result.reject, {
          response: result.response,
          details: result.details,
        });
      }
      if (result && 'accept' in result) principal = { permissions: new Set<string>(), ...result.accept };
    }
    principal = await kernel.hooks.run(authPrincipal, principal, req);
    ctx.state.principal = principal;
    (ctx.state.scope as AwilixContainer<Cradle>).register({ principal: asValue(principal) });
    await next();
  };
}
