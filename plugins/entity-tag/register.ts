/** entity-tag: Tag and EntityTag, their checks, the APIv3 EntityTag counts and the row access of entity tags. */
import { definePlugin } from '../../kernel';
import {
  entityAccess,
  referencedRowAccess,
  type EntityRegistry,
  type EntityService,
  type EntityStore,
} from '../entity-core';
import { defineEntityTagActions } from './entity-tag-actions';
import { extendTags } from './tag-lifecycle';

export default definePlugin(({ services, hooks, actions }) => {
  const entities = services.resolve<EntityRegistry>('entities');
  extendTags(entities);
  defineEntityTagActions(actions, () => services.resolve<EntityService>('entityService'));
  // A tag on a contact is seen with the contact and written by those who may edit it.
  hooks.tap(entityAccess, ({ entity, operation, principal }) => {
    if (entity !== 'EntityTag') return undefined;
    const store = services.resolve<EntityStore>('entityStore');
    return referencedRowAccess(store.access, entities, principal, operation === 'view' ? 'view' : 'edit', {
      tableField: 'entity_table',
      idField: 'entity_id',
      tables: { Contact: 'civicrm_contact' },
    });
  });
});
