import { definePlugin } from '../../../kernel';
import { httpRoutes } from '../../../host';

export default definePlugin(({ hooks, services, onReady }) => {
  let queries = 0;
  onReady(() => {
    services.resolve<import('knex').Knex>('db').on('query', () => {
      queries++;
    });
  });
  hooks.tap(httpRoutes, () => ({
    name: 'stats',
    methods: ['GET'],
    path: '/__bench/stats',
    handler: (ctx) => {
      ctx.body = { queries, ...process.memoryUsage() };
    },
  }));
});
