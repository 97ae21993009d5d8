import { definePlugin } from '../../kernel';
import { entityAccess } from './hooks';
import { EntityRegistry } from './registry';
import { EntityStore } from './store';

export default definePlugin(({ services, onReady, runHook }) => {
  const registry = new EntityRegistry();
  services.value('entities', registry);
  services.value('entityStore', new EntityStore(registry, (q) => runHook(entityAccess, q)));
  onReady(() => registry.seal());
});
