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
  // APIv4 Contact `tags`: the tags on a contact (a filter: `['tags', 'IN', [1, 2]]`; read-only).
  entities.addFields('Contact', [
    {
      name: 'tags',
      type: 'Int',
      title: 'Tags',
      readonly: true,
      pseudoEntity: { entity: 'Tag', labelField: 'label', nameField: 'name' },
      collection: { entity: 'EntityTag', fk: 'entity_id', field: 'tag_id', where: { entity_table: 'civicrm_contact' } },
    },
  ]);
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
