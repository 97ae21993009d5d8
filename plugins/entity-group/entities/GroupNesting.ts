/** GroupNesting: a group inside another (the parents/children lists of Group follow these rows). */
import type { EntityDef } from '../../entity-core';
import { groupPerms } from './perms';

const GroupNesting: EntityDef = {
  name: 'GroupNesting',
  table: 'crm_group_nesting',
  description: 'Provide parent-child relationships for groups',
  permissions: groupPerms,
  fields: [
    { name: 'id', type: 'Int', title: 'Group Nesting ID', required: true, readonly: true },
    {
      name: 'child_group_id',
      type: 'Int',
      title: 'Child Group ID',
      required: true,
      apiRequired: true,
      fk: 'Group',
      onDelete: 'cascade',
    },
    {
      name: 'parent_group_id',
      type: 'Int',
      title: 'Parent Group ID',
      required: true,
      apiRequired: true,
      fk: 'Group',
      onDelete: 'cascade',
    },
  ],
  indexes: [
    { name: 'child', fields: ['child_group_id'] },
    { name: 'parent', fields: ['parent_group_id'] },
  ],
};

export default GroupNesting;
