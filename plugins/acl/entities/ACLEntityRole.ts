/** ACLEntityRole: gives an ACL role to the members of a group (APIv3 `AclRole`). */
import type { EntityDef } from '../../entity-core';
import { ACL_PERMISSIONS } from './permissions';

const ACLEntityRole: EntityDef = {
  name: 'ACLEntityRole',
  table: 'crm_acl_entity_role',
  description: 'Join table for ACL and Entity',
  permissions: ACL_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'ACL Entity Role ID', required: true, readonly: true },
    { name: 'acl_role_id', type: 'Int', title: 'ACL Role ID', optionGroup: 'acl_role', apiRequired: true },
    {
      name: 'entity_table',
      type: 'String',
      title: 'Entity Table',
      maxlength: 64,
      required: true,
      options: { civicrm_group: 'Group' },
      apiDefault: 'civicrm_group',
    },
    {
      name: 'entity_id',
      type: 'Int',
      title: 'Entity ID',
      apiRequired: true,
      dynamicFk: { tableField: 'entity_table', entities: ['Group'], onDelete: 'cascade' },
    },
    {
      name: 'is_active',
      type: 'Boolean',
      title: 'ACL Entity Role is Active',
      required: true,
      default: true,
      apiDefault: 1,
    },
  ],
  indexes: [
    { name: 'index_role', fields: ['acl_role_id'] },
    { name: 'index_entity', fields: ['entity_table', 'entity_id'] },
  ],
};

export default ACLEntityRole;
