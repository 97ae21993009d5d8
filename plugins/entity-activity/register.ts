/** entity-activity: Activity and ActivityContact, their rules, and row access through the activity's contacts. */
import { definePlugin, holds, type Principal } from '../../kernel';
import { entityAccess, type EntityRegistry, type EntityStore, type RowAccess, type RowOperation } from '../entity-core';
import { permissionsCatalogue } from '../users';
import { extendActivities } from './activity-lifecycle';

export default definePlugin(({ services, hooks }) => {
  const entities = services.resolve<EntityRegistry>('entities');
  extendActivities(entities);
  hooks.tap(permissionsCatalogue, () => [
    { name: 'view all activities', label: 'CRM: view all activities', description: 'Read and write activities' },
    { name: 'delete activities', label: 'CRM: delete activities', description: 'Delete activities' },
  ]);

  /** An activity follows its contacts: seen (edited) when the caller may see (edit) one of them. */
  async function activityAccess(principal: Principal, operation: RowOperation): Promise<RowAccess> {
    const store = services.resolve<EntityStore>('entityStore');
    const contacts = await store.access.answer(entities.get('Contact'), operation, principal);
    if (contacts === 'all') return 'all';
    if (contacts === 'none') return 'none';
    const contact = { exists: { entity: 'Contact', field: 'id', ref: 'contact_id', where: contacts.where } };
    return { where: [{ exists: { entity: 'ActivityContact', field: 'activity_id', where: [contact] } }] };
  }

  hooks.tap(entityAccess, ({ entity, operation, principal }) => {
    if (entity !== 'Activity') return undefined;
    // Creating needs `view all activities` (the permission map); the new record has no contacts to follow yet.
    if (operation === 'create') return 'all';
    // Holders of `view all activities` with access to every contact see them all; others through contacts.
    if (
      operation === 'view' &&
      holds('view all activities', principal.permissions) &&
      holds('view all contacts', principal.permissions)
    )
      return 'all';
    return activityAccess(principal, operation === 'view' ? 'view' : 'edit');
  });
});
