/**
 * custom-data: CustomGroup and CustomField, each group's table made and altered while the service runs, and
 * the custom fields served on the entities they extend (APIv3 `custom_<id>`, APIv4 `<group>.<field>`).
 */
import { definePlugin, type Kernel } from '../../kernel';
import type { ChangeBus, EntityRegistry, EntityService } from '../entity-core';
import { EXTENDABLE } from './entities/CustomGroup';
import { customValueLifecycle } from './custom-values';
import { defineCustomValueActions } from './custom-value-actions';
import { fieldLifecycle, groupLifecycle } from './lifecycle';
import { CustomData } from './runtime';

export default definePlugin(({ services, actions, log, onReady }) => {
  const registry = services.resolve<EntityRegistry>('entities');
  const custom = new CustomData(
    registry,
    services.resolve<ChangeBus>('changeBus'),
    services.resolve<Kernel['db']>('db'),
    log,
  );
  services.value('customData', custom);
  registry.extend('CustomGroup', groupLifecycle(custom, registry));
  registry.extend('CustomField', fieldLifecycle(custom));
  // Every installed entity a group may extend takes `custom_<id>` values on its own writes.
  for (const name of new Set(Object.values(EXTENDABLE)))
    if (registry.find(name)) registry.extend(name, customValueLifecycle(custom, registry, name));
  defineCustomValueActions(actions, custom, registry, () => services.resolve<EntityService>('entityService'));
  onReady(async () => {
    try {
      await custom.load(services.resolve<Kernel['db']>('db'));
    } catch (err) {
      // Before `crm migrate` has made the tables (a CLI call on a new database): nothing to serve yet.
      log.debug({ err: (err as Error).message }, 'custom data: no metadata loaded');
    }
  });
});
