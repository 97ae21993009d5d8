/**
 * entity-relationship: Relationship and RelationshipType, the reference's checks, row access through the
 * related contacts, and permissioned relationships (a contact who may view or edit another).
 */
import { definePlugin, type Principal } from '../../kernel';
import {
  entityAccess,
  entityAccessGrants,
  type Condition,
  type EntityRegistry,
  type EntityStore,
  type RowAccess,
  type RowOperation,
} from '../entity-core';
import { extendRelationships } from './relationship-lifecycle';
import { linkEmployers } from './employer-link';

/** Whether a relationship is in force today: active, and today between its dates (open ends allowed). */
export function currentConditions(today: string): Condition[] {
  return [
    { path: 'is_active', op: '=', value: true },
    {
      or: [
        { path: 'start_date', op: 'IS NULL' },
        { path: 'start_date', op: '<=', value: today },
      ],
    },
    {
      or: [
        { path: 'end_date', op: 'IS NULL' },
        { path: 'end_date', op: '>=', value: today },
      ],
    },
  ];
}

export default definePlugin(({ services, hooks }) => {
  const entities = services.resolve<EntityRegistry>('entities');
  extendRelationships(entities);
  linkEmployers(entities);

  /** A relationship follows its contacts: seen (edited) when the caller may see (edit) either one. */
  async function relationshipAccess(principal: Principal, operation: RowOperation): Promise<RowAccess> {
    const store = services.resolve<EntityStore>('entityStore');
    const contacts = await store.access.answer(entities.get('Contact'), operation, principal);
    if (contacts === 'all' || contacts === 'none') return contacts;
    const side = (ref: string): Condition => ({
      exists: { entity: 'Contact', field: 'id', ref, where: contacts.where },
    });
    return { where: [{ or: [side('contact_id_a'), side('contact_id_b')] }] };
  }
  hooks.tap(entityAccess, ({ entity, operation, principal }) => {
    if (entity !== 'Relationship') return undefined;
    return relationshipAccess(principal, operation === 'view' ? 'view' : 'edit');
  });

  // Permissioned relationships: A with is_permission_a_b 1 (view) or 2 (view and update) over B reaches B's
  // contact record and the records B owns, while the relationship is in force; the same for B over A.
  hooks.tap(entityAccessGrants, ({ ownerField, operation, principal }) => {
    if (!ownerField || !principal.contactId || operation === 'create') return undefined;
    const level = operation === 'view' ? 1 : 2;
    const today = new Date().toISOString().slice(0, 10);
    const over = (me: string, them: string, permission: string): Condition => ({
      exists: {
        entity: 'Relationship',
        field: them,
        ref: ownerField,
        where: [
          { path: me, op: '=', value: principal.contactId },
          { path: permission, op: '>=', value: level },
          ...currentConditions(today),
        ],
      },
    });
    return {
      where: [
        {
          or: [
            over('contact_id_a', 'contact_id_b', 'is_permission_a_b'),
            over('contact_id_b', 'contact_id_a', 'is_permission_b_a'),
          ],
        },
      ],
    };
  });
});
