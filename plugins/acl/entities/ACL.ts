/** ACL: an ACL role may do an operation on an object (the contacts of a group). */
import type { EntityDef } from '../../entity-core';
import { ACL_PERMISSIONS } from './permissions';

/** The tables an ACL names: roles as holders; groups (the reference's older spelling: saved searches) as objects. */
export const HOLDER_TABLES = { civicrm_acl_role: 'ACL Role' };
export const OBJECT_TABLES = { civicrm_group: 'Group', civicrm_saved_search: 'Group (saved search)' };

const ACL: EntityDef = {
  name: 'ACL',
  table: 'crm_acl',
  description: 'Access Control List',
  labelField: 'name',
  permissions: ACL_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'ACL ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'ACL Name', maxlength: 64 },
    { name: 'deny', type: 'Boolean', title: 'Deny ACL?', required: true, default: false, apiDefault: 0 },
    {
      name: 'entity_table',
      type: 'String',
      title: 'ACL Entity',
      maxlength: 64,
      required: true,
      options: HOLDER_TABLES,
      apiDefault: 'civicrm_acl_role',
    },
    { name: 'entity_id', type: 'Int', title: 'Entity ID', optionGroup: 'acl_role', description: '0: everyone' },
    {
      name: 'operation',
      type: 'String',
      title: 'ACL Operation',
      maxlength: 8,
      required: true,
      apiRequired: true,
      options: { View: 'View', Edit: 'Edit', Create: 'Create', Delete: 'Delete', Search: 'Search', All: 'All' },
    },
    { name: 'object_table', type: 'String', title: 'ACL Object', maxlength: 64, options: OBJECT_TABLES },
    { name: 'object_id', type: 'Int', title: 'ACL Object ID' },
    { name: 'acl_table', type: 'String', title: 'ACL Table', maxlength: 64 },
    { name: 'acl_id', type: 'Int', title: 'ACL Group ID' },
    { name: 'is_active', type: 'Boolean', title: 'ACL Is Active?', required: true, default: true, apiDefault: 1 },
    { name: 'priority', type: 'Int', title: 'Priority', required: true, default: 0, apiDefault: 0 },
  ],
  indexes: [
    { name: 'index_acl_id', fields: ['acl_id'] },
    { name: 'index_object', fields: ['object_table', 'object_id'] },
  ],
};

export default ACL;
