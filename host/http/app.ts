/**
 * The HTTP host: koa with koa-body, a request scope, and the routes plugins contribute through
 * `http.routes`. The kernel owns no API route. Middleware order: error boundary → request scope →
 * body parsing → router (per route: authenticate → handler).
 */
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { KernelError, type Kernel } from '../../kernel';
import { httpRoutes } from '../hooks';
import type { RouteDefinition } from '../types';
import { authenticate } from './authenticate';
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
  // Multipart bodies carry form fields only: no route accepts uploads, so a file part is refused
  // rather than written to the temp folder.
  app.use(
    koaBody({
      multipart: true,
      urlencoded: true,
      json: true,
      text: false,
      includeUnparsed: true,
      jsonLimit: '2mb',
      formLimit: '2mb',
      formidable: { maxFiles: 0, maxFieldsSize: 2 * 1024 * 1024 },
    }),
  );
  const router = new Router();
  for (const route of await collectRoutes(kernel)) {
    const paths = ([] as string[]).concat(route.path);
    const handle = async (ctx: Koa.Context) => route.handler(ctx, ctx.state.scope);
    const mark = async (ctx: Koa.Context, next: Koa.Next) => {
      ctx.state.route = route;
      await next();
    };
    for (const path of paths)
      router.register(path, route.methods, [mark, authenticate(kernel, route), handle] as never, {
        name: `${route.id}:${path}`,
      });
  }
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: false }));
  return app;
}
