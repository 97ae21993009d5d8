/** entity-group: Group, GroupContact, GroupNesting, GroupOrganization and SavedSearch with their rules. */
import type { Knex } from 'knex';
import { definePlugin } from '../../kernel';
import { CLI_PRINCIPAL, type ChangeBus, type EntityRegistry, type EntityService } from '../entity-core';
import { defineGroupContactActions } from './group-contact-actions';
import { extendGroups } from './group-lifecycle';
import { SmartGroups, SMART_GROUPS_TOPIC } from './smart-groups';

export default definePlugin(({ services, actions, onReady, log }) => {
  const registry = services.resolve<EntityRegistry>('entities');
  const service = () => services.resolve<EntityService>('entityService');
  const smart = new SmartGroups(() => registry.get('Contact'));
  // The smart groups' criteria, for plugins that grant by group (acl).
  services.value('smartGroups', smart);
  extendGroups(registry, smart, () => services.resolve<ChangeBus>('changeBus'));
  // APIv4 Contact `groups`: the groups a contact is Added to (a filter: `['groups', 'IN', [1, 2]]`; read-only).
  registry.addFields('Contact', [
    {
      name: 'groups',
      type: 'Int',
      title: 'Groups',
      readonly: true,
      pseudoEntity: { entity: 'Group', labelField: 'title', nameField: 'name' },
      collection: { entity: 'GroupContact', fk: 'contact_id', field: 'group_id', where: { status: 'Added' } },
    },
  ]);
  defineGroupContactActions(actions, service);
  onReady(async () => {
    const db = services.resolve<Knex>('db');
    const load = () => smart.load(service().bind({ db, principal: CLI_PRINCIPAL, trusted: true }));
    await load();
    services.resolve<ChangeBus>('changeBus').on(SMART_GROUPS_TOPIC, () => {
      if (smart.muted) return;
      load().catch((err: Error) => log.warn({ err: err.message }, 'could not reload the smart groups'));
    });
  });
});
