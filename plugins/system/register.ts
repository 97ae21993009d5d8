import { KERNEL_VERSION, definePlugin } from '../../kernel';
import { engineOf, httpRoutes, ping } from '../../host';
import pkg from '../../package.json';

export default definePlugin(({ actions, hooks, services, plugins }) => {
  actions.define({
    version: 3,
    entity: 'System',
    action: 'get',
    description: 'Service version, database engine and the enabled plugins',
    params: { type: 'object' },
    permission: 'administer CRM',
    handler: (_params, { scope }) => {
      const info = {
        version: pkg.version,
        kernel: KERNEL_VERSION,
        database: engineOf(scope.cradle.db),
        plugins: plugins.map((p) => ({ name: p.name, version: p.manifest.version, kind: p.manifest.kind })),
      };
      return { is_error: 0, version: 3, count: 1, values: [info] };
    },
  });

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
});
