import { definePlugin, type Api, type Kernel } from '../../kernel';
import { cliCommands, engineOf, onEmbeddedNotification } from '../../host';
import { entityAccess, entityAccessGrants } from './hooks';
import { allOf, withGrants } from './row-access';
import { defineEntityActions } from './entity-actions';
import { defineFlushActions } from './flush-action';
import { ChangeBus } from './change-bus';
import { EntityRegistry } from './registry';
import { EntityStore } from './store';
import type { FieldCipher } from './values';
import { secretsCliCommands } from './secrets-cli';
import { loadEntityFiles } from './metadata';
import { EntityService } from './service';

export default definePlugin(
  async ({ services, serviceConfig, log, onReady, onClose, runHook, plugins, hooks, actions }) => {
    const registry = new EntityRegistry();
    // Entities declared as metadata files are defined before their plugins register (entity-core boots first).
    for (const plugin of plugins) for (const def of await loadEntityFiles(plugin)) registry.define(def);
    services.value('entities', registry);
    defineEntityActions(actions, registry);
    // The host's secret box (host/secrets.ts) seals the fields metadata marks `encrypted`.
    const store = new EntityStore(
      registry,
      // Grants only widen: when the rules already allow every row they are not asked (no grant query runs).
      async (q) => {
        const rules = await runHook(entityAccess, q);
        return [allOf(rules) === 'all' ? 'all' : withGrants(rules, await runHook(entityAccessGrants, q))];
      },
      services.resolve<FieldCipher>('secretBox'),
      serviceConfig.limits,
    );
    services.value('entityStore', store);
    services.value('entityService', new EntityService(registry, store, services.resolve<Api>('api')));
    const { url, schema } = serviceConfig.database;
    // One channel per schema, so tenants (and test runs) sharing a server do not hear each other.
    const bus = new ChangeBus(`crm_changes_${schema ?? 'public'}`, log);
    services.value('changeBus', bus);
    bus.on('options', () => registry.invalidateOptions());
    registry.useOptionBus({ announce: (db) => bus.announce(db, 'options') });
    defineFlushActions(actions, bus);
    onReady(async () => {
      // A write to an entity whose rows are options (a new FinancialType, a renamed Group) empties every
      // instance's option lists once it commits, as an option value's write does (entity-option).
      const announce = async (_row: unknown, { db }: { db: Kernel['db'] }) => registry.optionsChanged(db);
      for (const name of registry.optionSources())
        registry.extend(name, { afterSave: announce, afterDelete: announce });
      registry.seal();
      const db = services.resolve<Kernel['db']>('db');
      if (engineOf(db) === 'pglite') await bus.listenEmbedded(db, (fn) => onEmbeddedNotification(db, fn));
      else if (url) await bus.listen(url);
      // PostgreSQL without a URL: a CLI command attached to a running embedded server's socket.
      else bus.sendThroughDatabase();
    });
    hooks.tap(cliCommands, () => secretsCliCommands());
    onClose(() => bus.close());
  },
);
