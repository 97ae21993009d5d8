/**
 * The HTTP host: koa with koa-body, a request scope, and the routes plugins contribute through
 * `http.routes`. The kernel owns no API route. Middleware order: error boundary → request scope →
 * router (per route: body parsing → authenticate → handler) → method refusals. The body is parsed
 * inside the route, so a malformed, oversized or undecodable body is answered by the route's own
 * `renderError`, in its binding's envelope; so is a method the path does not serve (405).
 */
import Router from '@koa/router';
import Koa from 'koa';
import { KernelError, type Kernel } from '../../kernel';
import { httpRoutes } from '../hooks';
import type { RouteDefinition } from '../types';
import { authenticate } from './authenticate';
import { isPlainForm, readPlainForm } from './form-body';
import { errorBoundary } from './error-boundary';
import { instrumentServices, metricsEndpoint } from '../metrics';
import { corsMiddleware, observe } from './observe';
import { requestScope } from './request-scope';

export type MountedRoute = RouteDefinition & { id: string; plugin: string };

/** Collects routes from plugins; two routes with one method and path is a boot error naming both. */
export async function collectRoutes(kernel: Kernel): Promise<MountedRoute[]> {
  const contributed = await kernel.hooks.collectAttributed(httpRoutes);
  const seen = new Map<string, string>();
  const routes: MountedRoute[] = [];
  for (const { plugin, item } of contributed) {
    for (const method of item.methods) {
      for (const path of ([] as string[]).concat(item.path)) {
        const key = `${method} ${path}`;
        const other = seen.get(key);
        if (other)
          throw new KernelError('E_HOOK_DUPLICATE', `Route ${key} is contributed by both ${other} and ${plugin}`, {
            plugin,
          });
        seen.set(key, plugin);
      }
    }
    routes.push({ ...item, plugin, id: `${plugin}:${item.name}` });
  }
  return routes;
}

export async function createApp(kernel: Kernel): Promise<Koa> {
  const app = new Koa({ proxy: kernel.config.server.trustProxy });
  // The one place errors are logged: the boundary emits, this listener writes (Koa's contract).
  app.on('error', (err: KernelError, ctx?: Koa.Context) => {
    const level = err.status >= 500 || err.status === 0 ? 'error' : 'info';
    kernel.log[level](
      {
        requestId: ctx?.state.requestId,
        code: err.code,
        plugin: err.plugin,
        err: level === 'error' ? (err.cause ?? err) : undefined,
      },
      err.message,
    );
  });
  instrumentServices(kernel);
  app.use(observe(kernel));
  app.use(errorBoundary());
  const cors = corsMiddleware(kernel);
  if (cors) app.use(cors);
  app.use(requestScope(kernel));
  app.use(metricsEndpoint(kernel));
  const body = bodyParser();
  const router = new Router();
  const byLayer = new Map<string, MountedRoute>();
  for (const route of await collectRoutes(kernel)) {
    const paths = ([] as string[]).concat(route.path);
    const handle = async (ctx: Koa.Context) => route.handler(ctx, ctx.state.scope);
    const mark = async (ctx: Koa.Context, next: Koa.Next) => {
      ctx.state.route = route;
      await next();
    };
    for (const path of paths) {
      byLayer.set(`${route.id}:${path}`, route);
      router.register(path, route.methods, [mark, body, authenticate(kernel, route), handle] as never, {
        name: `${route.id}:${path}`,
      });
    }
  }
  app.use(router.routes());
  app.use(methodRefusal(router, byLayer));
  return app;
}

/**
 * koa-body, run inside the route. Multipart bodies carry form fields only: no route accepts uploads,
 * so a file part is refused rather than written to the temp folder. Any failure to read the body is
 * the caller's (a bad Content-Encoding, a multipart without boundary, invalid JSON, too large): an
 * `E_BAD_REQUEST` with a 4xx status, never a 500. A plain form body (the usual API call) is read by
 * form-body.ts into the same result, more cheaply.
 */
function bodyParser(): Koa.Middleware {
  // koa-body (with zod and formidable, ~0.2 s to load) is imported by the first request that may carry a
  // body: it parses POST, PUT and PATCH only, so every other request skips it, as koa-body itself would.
  let loading: Promise<Koa.Middleware> | undefined;
  const load = async () =>
    (await import('koa-body')).koaBody({
      multipart: true,
      urlencoded: true,
      json: true,
      text: false,
      includeUnparsed: true,
      jsonLimit: '2mb',
      formLimit: '2mb',
      formidable: { maxFiles: 0, maxFieldsSize: 2 * 1024 * 1024 },
    }) as Koa.Middleware;
  return async function parseBody(ctx, next) {
    if (PARSED_METHODS.has(ctx.method)) {
      try {
        if (isPlainForm(ctx)) await readPlainForm(ctx);
        else await (await (loading ??= load()))(ctx, async () => undefined);
      } catch (err) {
        throw bodyError(err);
      }
    }
    await next();
  };
}

/** The methods koa-body parses (its `parsedMethods` default). */
const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export function bodyError(err: unknown): KernelError {
  const parseError = err as { status?: number; httpCode?: number; type?: string };
  const status = parseError?.status ?? parseError?.httpCode;
  if (status === 413)
    return new KernelError('E_BAD_REQUEST', 'The request body is too large (2 MB at most)', { status, cause: err });
  if (status === 415)
    return new KernelError('E_BAD_REQUEST', 'Unsupported Content-Encoding or Content-Type', { status, cause: err });
  if (parseError?.type === 'encoding.unsupported' || parseError?.type === 'charset.unsupported')
    return new KernelError('E_BAD_REQUEST', 'Unsupported Content-Encoding or charset', { status: 415, cause: err });
  return new KernelError(
    'E_BAD_REQUEST',
    'Malformed request body (its Content-Type or Content-Encoding does not match it)',
    {
      status: 400,
      cause: err,
    },
  );
}

/**
 * A path some route serves, asked with another method: 405 with `Allow`, rendered by that route (its
 * binding's envelope); OPTIONS there is answered 204 with `Allow`. Paths no route serves fall through
 * to the boundary's 404.
 */
function methodRefusal(router: Router, byLayer: Map<string, MountedRoute>): Koa.Middleware {
  return async function methodRefusalMiddleware(ctx) {
    // The router calls on only when no route serves this path with this method.
    const layers = router.match(ctx.path, ctx.method).path.filter((l) => l.methods.length > 0);
    if (!layers.length) return;
    const allow = [...new Set(layers.flatMap((l) => l.methods))].join(', ');
    ctx.set('Allow', allow);
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    ctx.state.route = byLayer.get(String(layers[0].name));
    throw new KernelError(
      'E_BAD_REQUEST',
      `Method ${ctx.method.slice(0, 20)} is not allowed here (allowed: ${allow})`,
      {
        status: 405,
      },
    );
  };
}
