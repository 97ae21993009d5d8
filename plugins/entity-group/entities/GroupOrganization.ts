/** GroupOrganization: the organisation a group belongs to. */
import type { EntityDef } from '../../entity-core';
import { groupPerms } from './perms';

const GroupOrganization: EntityDef = {
  name: 'GroupOrganization',
  table: 'crm_group_organization',
  description: 'Integrate Organization information into Groups',
  permissions: groupPerms,
  fields: [
    { name: 'id', type: 'Int', title: 'Group Organization ID', required: true, readonly: true },
    {
      name: 'group_id',
      type: 'Int',
      title: 'Group',
      required: true,
      apiRequired: true,
      fk: 'Group',
      onDelete: 'cascade',
    },
    {
      name: 'organization_id',
      type: 'Int',
      title: 'Organization',
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'cascade',
    },
  ],
  indexes: [{ name: 'group_organization', fields: ['group_id', 'organization_id'], unique: true }],
};

export default GroupOrganization;
