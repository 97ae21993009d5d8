/**
 * System.flush: every cache the service keeps (option lists, the principal cache, the OAuth provider list,
 * smart groups…) is dropped, here and on every instance, by announcing each topic on the change bus.
 */
import type { ActionRegistrar } from '../../kernel';
import type { ChangeBus } from './change-bus';

export function defineFlushActions(actions: ActionRegistrar, bus: ChangeBus): void {
  const flush = async (db: Parameters<ChangeBus['announce']>[0]) => {
    for (const topic of bus.topics()) await bus.announce(db, topic);
  };
  actions.define({
    version: 3,
    entity: 'System',
    action: 'flush',
    description: 'Drops every cache (options, principals, OAuth providers, smart groups) on every instance',
    params: { type: 'object' },
    permission: 'administer CRM',
    handler: async (_params, ctx) => {
      await flush(ctx.db);
      return { is_error: 0, version: 3, count: 0, values: [] };
    },
  });
  actions.define({
    version: 4,
    entity: 'System',
    action: 'flush',
    description: 'Drops every cache on every instance',
    params: { type: 'object', properties: { checkPermissions: { type: 'boolean' } } },
    permission: 'administer CRM',
    handler: async (_params, ctx) => {
      await flush(ctx.db);
      return [];
    },
  });
}
