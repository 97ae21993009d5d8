/**
 * Prometheus metrics (prom-client), one registry per kernel: HTTP requests by route and status, API calls
 * by entity, action and outcome, the database pool, OAuth token refreshes. Served at `/metrics` only when
 * `metrics.enabled`; with `metrics.token` the caller must send `Authorization: Bearer <token>`.
 */
import { timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Context, Next } from 'koa';
import type * as client from 'prom-client';
import { apiException, apiRespond, type Kernel } from '../kernel';

// prom-client (with @opentelemetry/api, ~70 files) is loaded by the first kernel that counts: only with
// `metrics.enabled` do the hooks, the services and the access middleware count anything (docs/performance.md).
let promClient: typeof client | undefined;
const prom = (): typeof client => (promClient ??= createRequire(import.meta.url)('prom-client') as typeof client);

/** Whether this kernel counts (and serves `/metrics`). */
export const metricsEnabled = (kernel: Kernel): boolean => Boolean(kernel.config.metrics?.enabled);

export interface Metrics {
  readonly registry: client.Registry;
  readonly httpRequests: client.Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: client.Histogram<'method' | 'route' | 'status'>;
  readonly apiCalls: client.Counter<'version' | 'entity' | 'action' | 'outcome'>;
  readonly oauthRefreshes: client.Counter<'outcome'>;
}

const metricsOf = new WeakMap<Kernel, Metrics>();

/** The kernel's metrics, created (and wired to its hooks and pool) on first use. */
export function kernelMetrics(kernel: Kernel): Metrics {
  let metrics = metricsOf.get(kernel);
  if (metrics) return metrics;
  const client = prom();
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  metrics = {
    registry,
    httpRequests: new client.Counter({
      name: 'crm_http_requests_total',
      help: 'HTTP requests by method, route (the route id; "unmatched" for no route) and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new client.Histogram({
      name: 'crm_http_request_duration_seconds',
      help: 'HTTP request latency by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    apiCalls: new client.Counter({
      name: 'crm_api_calls_total',
      help: 'API calls (both versions, HTTP and CLI) by entity, action and outcome (ok or the error code)',
      labelNames: ['version', 'entity', 'action', 'outcome'],
      registers: [registry],
    }),
    oauthRefreshes: new client.Counter({
      name: 'crm_oauth_token_refreshes_total',
      help: 'OAuth token refreshes sent to providers, by outcome (ok or the error code)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
  const pool = () =>
    (
      kernel.db.client as {
        pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number; max: number };
      }
    ).pool;
  const gauge = (name: string, help: string, read: (p: NonNullable<ReturnType<typeof pool>>) => number) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const p = pool();
        if (p) this.set(read(p));
      },
    });
  gauge('crm_db_pool_used', 'Database connections in use', (p) => p.numUsed());
  gauge('crm_db_pool_free', 'Idle database connections', (p) => p.numFree());
  gauge('crm_db_pool_pending', 'Queries waiting for a connection', (p) => p.numPendingAcquires());
  gauge('crm_db_pool_max', 'Pool size limit', (p) => p.max);
  metricsOf.set(kernel, metrics);
  return metrics;
}

/** Counts API calls through the kernel's own hooks; call before plugins register (the bus seals after). */
export function instrumentKernel(kernel: Kernel): void {
  // Tapped either way (the taps are part of the hook catalogue, docs/hooks.md); they count only when enabled.
  const metrics = metricsEnabled(kernel) ? kernelMetrics(kernel) : undefined;
  const labels = (req: { version: number; entity: string; action: string }) => ({
    version: String(req.version),
    entity: req.entity || '-',
    action: req.action || '-',
  });
  kernel.hooks.tap('host', apiRespond, (result, req) => {
    metrics?.apiCalls.inc({ ...labels(req), outcome: 'ok' });
    return result;
  });
  kernel.hooks.tap('host', apiException, (err, req) => {
    metrics?.apiCalls.inc({ ...labels(req), outcome: err.code });
  });
}

const wrapped = new WeakSet<Kernel>();

/**
 * Counts OAuth refreshes by wrapping the `oauthTokens` service's `refresh`, when the oauth-client plugin
 * registered it (every refresh, by an action or by the bearer helper, goes through it). Once, after boot.
 */
export function instrumentServices(kernel: Kernel): void {
  if (!metricsEnabled(kernel) || wrapped.has(kernel) || !kernel.container.hasRegistration('oauthTokens')) return;
  wrapped.add(kernel);
  const metrics = kernelMetrics(kernel);
  const tokens = kernel.container.resolve<{ refresh(...args: unknown[]): Promise<unknown> }>('oauthTokens');
  const refresh = tokens.refresh.bind(tokens);
  tokens.refresh = async (...args: unknown[]) => {
    try {
      const out = await refresh(...args);
      metrics.oauthRefreshes.inc({ outcome: 'ok' });
      return out;
    } catch (err) {
      metrics.oauthRefreshes.inc({ outcome: (err as { code?: string }).code ?? 'E_INTERNAL' });
      throw err;
    }
  };
}

/** `GET /metrics` (before the router): 404 when disabled, 401 without the configured bearer token. */
export function metricsEndpoint(kernel: Kernel) {
  const { enabled, token } = kernel.config.metrics;
  return async function metricsMiddleware(ctx: Context, next: Next) {
    if (ctx.path !== '/metrics' || !enabled || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    if (token && !bearerMatches(ctx.get('Authorization'), token)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.body = { error: { code: 'E_UNAUTHENTICATED', message: 'Metrics need the configured bearer token' } };
      return;
    }
    const registry = kernelMetrics(kernel).registry;
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  };
}

function bearerMatches(header: string, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match) return false;
  const sent = Buffer.from(match[1].trim());
  const expected = Buffer.from(token);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
