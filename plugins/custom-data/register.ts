/**
 * custom-data: CustomGroup and CustomField, each group's table made and altered while the service runs, and
 * the custom fields served on the entities they extend (APIv3 `custom_<id>`, APIv4 `<group>.<field>`).
 */
import { definePlugin, type Kernel } from '../../kernel';
import {
  entityAccess,
  type ChangeBus,
  type EntityRegistry,
  type EntityService,
  type EntityStore,
} from '../entity-core';
import { extendedName } from './entities/CustomGroup';
import { customValueLifecycle } from './custom-values';
import { defineCustomValueActions } from './custom-value-actions';
import { fieldLifecycle, groupLifecycle } from './lifecycle';
import { CustomData, customDataTableChanged } from './runtime';

export default definePlugin(({ services, actions, hooks, log, onReady, onClose, runHook }) => {
  const registry = services.resolve<EntityRegistry>('entities');
  const custom = new CustomData(
    registry,
    services.resolve<ChangeBus>('changeBus'),
    services.resolve<Kernel['db']>('db'),
    log,
    (db, table) => runHook(customDataTableChanged, db, table),
  );
  services.value('customData', custom);
  onClose(() => custom.settled());
  registry.extend('CustomGroup', groupLifecycle(custom, registry));
  registry.extend('CustomField', fieldLifecycle(custom, registry));
  // Every installed entity a group may extend takes `custom_<id>` values on its own writes.
  for (const name of registry.names())
    if (extendedName(name, () => true)) registry.extend(name, customValueLifecycle(custom, registry, name));
  defineCustomValueActions(actions, custom, registry, () => services.resolve<EntityService>('entityService'));
  // Values on a contact follow the contact (`ownerField`); values on other records follow that record's access.
  // Not async: an entity other than a custom group's is answered at once (this runs on every read).
  hooks.tap(entityAccess, ({ entity, operation, principal }) => {
    const found = entity.startsWith('Custom_') ? custom.groupOf(entity) : undefined;
    const extended = found && custom.extended(found);
    if (!extended || extended.name === 'Contact') return undefined;
    const store = services.resolve<EntityStore>('entityStore');
    return store.access.answer(extended, operation === 'view' ? 'view' : 'edit', principal).then((access) => {
      if (access === 'all' || access === 'none') return access;
      return { where: [{ exists: { entity: extended.name, field: 'id', ref: 'entity_id', where: access.where } }] };
    });
  });
  onReady(async () => {
    try {
      await custom.load(services.resolve<Kernel['db']>('db'));
    } catch (err) {
      // Before `crm migrate` has made the tables (a CLI call on a new database): nothing to serve yet.
      log.debug({ err: (err as Error).message }, 'custom data: no metadata loaded');
    }
  });
});
