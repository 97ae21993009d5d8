/**
 * The contacts an ACL lets a principal reach, as conditions (never id lists): a contact is reachable when it
 * is an Added member of a group that an active, allowing ACL gives, for the operation, to one of the
 * principal's roles — the roles the principal's contact holds through its own Added group memberships
 * (ACLEntityRole), or role 0, everyone. A smart group's members are its saved search's matches (register.ts
 * asks which smart groups are granted, then adds their criteria).
 */
import type { Condition, RowOperation } from '../entity-core';

const OPERATIONS: Record<RowOperation, string[]> = {
  view: ['View', 'Edit', 'All'],
  edit: ['Edit', 'All'],
  delete: ['Delete', 'All'],
  create: ['Create', 'All'],
};

const added: Condition = { path: 'status', op: '=', value: 'Added' };

/** The principal's roles, as conditions on an ACL row: role 0, or a role one of its groups holds. */
function heldRole(contactId: number): Condition {
  const member: Condition = {
    exists: {
      entity: 'GroupContact',
      field: 'group_id',
      ref: 'entity_id',
      where: [{ path: 'contact_id', op: '=', value: contactId }, added],
    },
  };
  const role: Condition = {
    exists: {
      entity: 'ACLEntityRole',
      field: 'acl_role_id',
      ref: 'entity_id',
      where: [
        { path: 'is_active', op: '=', value: true },
        { path: 'entity_table', op: 'IN', value: ['civicrm_group', 'crm_group'] },
        member,
      ],
    },
  };
  return { or: [{ path: 'entity_id', op: '=', value: 0 }, role] };
}

/** The ACL rows that let this principal's roles reach a group's contacts for `operation`. */
export function grantingAcls(operation: RowOperation, contactId: number): Condition[] {
  return [
    { path: 'is_active', op: '=', value: true },
    { path: 'deny', op: '=', value: false },
    { path: 'entity_table', op: '=', value: 'civicrm_acl_role' },
    { path: 'object_table', op: 'IN', value: ['civicrm_group', 'civicrm_saved_search'] },
    { path: 'operation', op: 'IN', value: OPERATIONS[operation] },
    heldRole(contactId),
  ];
}

/** Rows whose owning contact (`ownerField`) is an Added member of a group the principal's ACLs reach. */
export function aclGrant(ownerField: string, operation: RowOperation, contactId: number): Condition {
  const acl: Condition = {
    exists: { entity: 'ACL', field: 'object_id', ref: 'group_id', where: grantingAcls(operation, contactId) },
  };
  return { exists: { entity: 'GroupContact', field: 'contact_id', ref: ownerField, where: [added, acl] } };
}
