import { definePlugin, engineOf, type Kernel } from '../../kernel';
import { entityAccess } from './hooks';
import { OptionBus } from './option-bus';
import { EntityRegistry } from './registry';
import { EntityStore } from './store';

export default definePlugin(({ services, serviceConfig, log, onReady, onClose, runHook }) => {
  const registry = new EntityRegistry();
  services.value('entities', registry);
  services.value('entityStore', new EntityStore(registry, (q) => runHook(entityAccess, q)));
  const { url, schema } = serviceConfig.database;
  const bus = new OptionBus(`crm_options_${schema ?? 'public'}`, () => registry.invalidateOptions(), log);
  registry.useOptionBus(bus);
  onReady(async () => {
    registry.seal();
    if (url && engineOf(services.resolve<Kernel['db']>('db')) === 'postgresql') await bus.listen(url, schema);
  });
  onClose(() => bus.close());
});
