import { KERNEL_VERSION, definePlugin } from '../../kernel';
import path from 'node:path';
import { engineOf, httpRoutes, pendingMigrations, ping } from '../../host';
import pkg from '../../package.json';
import { defineSiteActions } from './site-actions';
import { defineCheckActions } from './check-action';

export default definePlugin(({ actions, hooks, services, plugins }) => {
  const systemInfo = (db: Parameters<typeof engineOf>[0]) => ({
    version: pkg.version,
    kernel: KERNEL_VERSION,
    database: engineOf(db),
    plugins: plugins.map((p) => ({ name: p.name, version: p.manifest.version, kind: p.manifest.kind })),
  });
  actions.define({
    version: 3,
    entity: 'System',
    action: 'get',
    description: 'Service version, database engine and the enabled plugins',
    params: { type: 'object' },
    permission: 'administer CRM',
    handler: (_params, { scope }) => ({ is_error: 0, version: 3, count: 1, values: [systemInfo(scope.cradle.db)] }),
  });
  actions.define({
    version: 4,
    entity: 'System',
    action: 'get',
    description: 'Service version, database engine and the enabled plugins',
    params: { type: 'object', properties: { checkPermissions: { type: 'boolean' } } },
    permission: 'administer CRM',
    handler: (_params, { scope }) => [systemInfo(scope.cradle.db)],
  });

  defineSiteActions(actions, plugins);
  defineCheckActions(actions, plugins);

  hooks.tap(httpRoutes, () => ({
    name: 'healthz',
    methods: ['GET', 'HEAD'],
    path: '/healthz',
    // Answers 200 only when the database answers; a load balancer takes the instance out otherwise.
    handler: async (ctx) => {
      await ping(services.resolve('db'));
      ctx.body = { status: 'ok' };
    },
  }));

  // Readiness: the database answers and every enabled plugin's migrations are applied (e.g. another
  // instance, or a release step, is not half-way through a schema change this code needs).
  hooks.tap(httpRoutes, () => ({
    name: 'readyz',
    methods: ['GET', 'HEAD'],
    path: '/readyz',
    handler: async (ctx) => {
      const db = services.resolve<Parameters<typeof ping>[0]>('db');
      let pending: string[];
      try {
        await ping(db);
        pending = await pendingMigrations(
          db,
          plugins.map((p) => ({ plugin: p.name, dir: path.join(p.dir, 'migrations') })),
        );
      } catch {
        ctx.status = 503;
        ctx.body = { status: 'unavailable', database: 'unreachable' };
        return;
      }
      ctx.status = pending.length ? 503 : 200;
      ctx.body = pending.length
        ? { status: 'unavailable', database: 'ok', migrations: 'pending', pending }
        : { status: 'ok', database: 'ok', migrations: 'applied' };
    },
  }));
});
