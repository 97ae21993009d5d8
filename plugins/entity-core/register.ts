import { definePlugin, type Kernel } from '../../kernel';
import { engineOf } from '../../host';
import { entityAccess } from './hooks';
import { ChangeBus } from './change-bus';
import { EntityRegistry } from './registry';
import { EntityStore } from './store';

export default definePlugin(({ services, serviceConfig, log, onReady, onClose, runHook }) => {
  const registry = new EntityRegistry();
  services.value('entities', registry);
  services.value('entityStore', new EntityStore(registry, (q) => runHook(entityAccess, q)));
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
