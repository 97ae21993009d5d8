/** GroupContact: a contact's membership of a static group, with its status (§7). */
import type { EntityDef } from '../../entity-core';
import { groupContactPerms } from './perms';

const GroupContact: EntityDef = {
  name: 'GroupContact',
  table: 'crm_group_contact',
  description: 'Membership of static groups: Added, Removed (opted out) or Pending',
  permissions: groupContactPerms,
  fields: [
    { name: 'id', type: 'Int', title: 'Group Contact ID', required: true, readonly: true },
    {
      name: 'group_id',
      type: 'Int',
      title: 'Group ID',
      required: true,
      apiRequired: true,
      fk: 'Group',
      onDelete: 'cascade',
      pseudoEntity: { entity: 'Group', labelField: 'title', nameField: 'name' },
    },
    {
      name: 'contact_id',
      type: 'Int',
      title: 'Contact ID',
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'cascade',
    },
    {
      name: 'status',
      type: 'String',
      title: 'Group Contact Status',
      maxlength: 8,
      apiDefault: 'Added',
      options: { Added: 'Added', Removed: 'Removed', Pending: 'Pending' },
    },
    { name: 'location_id', type: 'Int', title: 'Location ID' },
    { name: 'email_id', type: 'Int', title: 'Email ID', fk: 'Email', onDelete: 'set null' },
  ],
  indexes: [
    { name: 'contact_group', fields: ['contact_id', 'group_id'], unique: true },
    { name: 'group_status', fields: ['group_id', 'status'] },
  ],
};

export default GroupContact;
