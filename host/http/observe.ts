/**
 * The outermost middleware: one access-log line per request (method, path with secret query values
 * redacted, status, duration, request id, principal) and the HTTP metrics by route and status.
 * CORS for browser apps on other origins (@koa/cors), off unless origins are configured.
 */
import cors from '@koa/cors';
import type { Context, Middleware, Next } from 'koa';
import type { Kernel } from '../../kernel';
import { SECRET_KEYS } from '../log';
import { kernelMetrics, metricsEnabled } from '../metrics';
import type { MountedRoute } from './app';

/** Query keys whose values never reach the access log (the logger's secret keys, and OAuth's `code`). */
const SECRET_QUERY = new Set([...SECRET_KEYS, 'code', 'state'].map((k) => k.toLowerCase()));

/** The request's path and query, each secret query value replaced by `[redacted]`. */
export function redactedUrl(ctx: Pick<Context, 'path' | 'querystring'>): string {
  if (!ctx.querystring) return ctx.path;
  const parts = ctx.querystring.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    let key: string;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    } catch {
      key = rawKey;
    }
    // `json[api_key]`, `_authx`… : the innermost name decides.
    const name = (/([^[\]]+)\]?$/.exec(key)?.[1] ?? key).toLowerCase();
    return SECRET_QUERY.has(name) && eq >= 0 ? `${rawKey}=[redacted]` : pair;
  });
  return `${ctx.path}?${parts.join('&')}`;
}

/** The levels at which the access log (an `info` line per request) is written. */
const INFO_OR_LOWER = new Set(['trace', 'debug', 'info']);

export function observe(kernel: Kernel): Middleware {
  const metrics = metricsEnabled(kernel) ? kernelMetrics(kernel) : undefined;
  // The level is fixed at start: below `info` the line would be dropped, so it is not built at all.
  const access = kernel.config.log.access && INFO_OR_LOWER.has(kernel.config.log.level);
  const log = kernel.log.child({ component: 'http' });
  return async function observeMiddleware(ctx: Context, next: Next) {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route =
        (ctx.state.route as MountedRoute | undefined)?.id ?? (ctx.path === '/metrics' ? 'metrics' : 'unmatched');
      const labels = { method: ctx.method, route, status: String(ctx.status) };
      metrics?.httpRequests.inc(labels);
      metrics?.httpDuration.observe(labels, seconds);
      if (access) {
        const principal = ctx.state.principal as { contactId?: number | null; userId?: number | null; via?: string };
        log.info(
          {
            requestId: ctx.state.requestId,
            method: ctx.method,
            path: redactedUrl(ctx),
            status: ctx.status,
            ms: Math.round(seconds * 10000) / 10,
            route,
            contactId: principal?.contactId ?? null,
            userId: principal?.userId ?? null,
            via: principal?.via ?? 'anonymous',
          },
          'request',
        );
      }
    }
  };
}

/** @koa/cors over the configured allow-list; undefined (no middleware) when no origin is configured. */
export function corsMiddleware(kernel: Kernel): Middleware | undefined {
  const { origins, credentials, maxAgeSeconds, exposeHeaders } = kernel.config.server.cors;
  if (!origins.length) return undefined;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return cors({
    // An origin off the list gets no CORS headers at all, so the browser refuses the answer.
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      return any ? '*' : allowed.has(origin) ? origin : '';
    },
    credentials,
    maxAge: maxAgeSeconds,
    exposeHeaders,
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: [
      'Authorization',
      'Content-Type',
      'X-Requested-With',
      'X-Request-Id',
      'X-Crm-Auth',
      'X-Crm-Key',
      'X-Civi-Auth',
      'X-Civi-Key',
    ],
  });
}
