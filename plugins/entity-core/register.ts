import { definePlugin, engineOf, type Kernel } from '../../kernel';
import { entityAccess } from './hooks';
import { ChangeBus } from './change-bus';
import { EntityRegistry } from './registry';
import { EntityStore } from './store';
import { EntityService } from './service';

export default definePlugin(({ services, serviceConfig, log, onReady, onClose, runHook }) => {
  const registry = new EntityRegistry();
  services.value('entities', registry);
  const store = new EntityStore(registry, (q) => runHook(entityAccess, q));
  services.value('entityStore', store);
  services.value('entityService', new EntityService(registry, store));
  const { url, schema } = serviceConfig.database;
  // One channel per schema, so tenants (and test runs) sharing a server do not hear each other.
  const bus = new ChangeBus(`crm_changes_${schema ?? 'public'}`, log);
  services.value('changeBus', bus);
  bus.on('options', () => registry.invalidateOptions());
  registry.useOptionBus({ announce: (db) => bus.announce(db, 'options') });
  onReady(async () => {
    registry.seal();
    if (url && engineOf(services.resolve<Kernel['db']>('db')) === 'postgresql') await bus.listen(url);
  });
  onClose(() => bus.close());
});
