/**
 * The first middleware: every error ends here, is emitted once on the app (where it is logged with
 * the request id), and is rendered by the route that owns the request, in its own wire format.
 * Unexpected errors become `E_INTERNAL` and their text never reaches the caller.
 */
import type { Context, Next } from 'koa';
import { KernelError, isKernelError } from '../../kernel';
import type { RouteDefinition } from '../types';

export function toKernelError(err: unknown): KernelError {
  if (isKernelError(err)) return err;
  const e = err as { status?: number; httpCode?: number; expose?: boolean; message?: string };
  // koa-body (http-errors) and formidable (httpCode) flag malformed requests: a caller's mistake, not ours.
  const status = e?.status ?? e?.httpCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new KernelError('E_BAD_REQUEST', e.expose ? String(e.message) : 'Malformed or oversized request body', {
      status,
      cause: err,
    });
  }
  return new KernelError('E_INTERNAL', 'Internal error', { cause: err });
}

export function errorBoundary() {
  return async function errorBoundaryMiddleware(ctx: Context, next: Next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined)
        throw new KernelError('E_NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`);
    } catch (err) {
      const error = toKernelError(err);
      ctx.app.emit('error', error, ctx);
      render(error, ctx);
    }
  };
}

function render(error: KernelError, ctx: Context): void {
  // Headers set before the failure (e.g. a half-built response) must not leak into the error answer.
  ctx.remove('Content-Disposition');
  if (error.response) {
    ctx.status = error.response.status;
    ctx.type = error.response.type;
    for (const [k, value] of Object.entries(error.response.headers ?? {})) ctx.set(k, value);
    ctx.body = error.response.body;
    return;
  }
  const route = ctx.state.route as RouteDefinition | undefined;
  if (route?.renderError) {
    route.renderError(error, ctx);
    return;
  }
  ctx.status = error.status >= 400 ? error.status : 500;
  ctx.type = 'application/json';
  ctx.body = {
    error: {
      code: error.code,
      message: error.expose ? error.message : 'Internal error',
      ...(error.expose && error.details ? { details: error.details } : {}),
    },
  };
}
