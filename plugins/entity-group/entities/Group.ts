/** Group (§7): static groups hold GroupContact rows; a group with `saved_search_id` is a smart group. */
import type { EntityDef, FieldDef } from '../../entity-core';
import { groupPerms } from './perms';

const flag = (name: string, title: string, value: boolean): FieldDef => ({
  name,
  type: 'Boolean',
  title,
  required: true,
  default: value,
  apiDefault: value ? 1 : 0,
});

const Group: EntityDef = {
  name: 'Group',
  table: 'crm_group',
  description: 'Provide grouping of related contacts',
  labelField: 'title',
  permissions: groupPerms,
  fields: [
    { name: 'id', type: 'Int', title: 'Group ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Group Name', maxlength: 64, required: true },
    { name: 'title', type: 'String', title: 'Group Title', maxlength: 255, required: true, apiRequired: true },
    { name: 'description', type: 'Text', title: 'Group Description' },
    { name: 'source', type: 'String', title: 'Group Source', maxlength: 64 },
    { name: 'saved_search_id', type: 'Int', title: 'Saved Search ID', fk: 'SavedSearch', onDelete: 'cascade' },
    flag('is_active', 'Group Enabled', true),
    {
      name: 'visibility',
      type: 'String',
      title: 'Group Visibility Setting',
      maxlength: 24,
      default: 'User and User Admin Only',
      apiDefault: 'User and User Admin Only',
      options: { 'User and User Admin Only': 'User and User Admin Only', 'Public Pages': 'Public Pages' },
    },
    { name: 'where_clause', type: 'Text', title: 'Group Where Clause', readonly: true },
    {
      name: 'group_type',
      type: 'String',
      title: 'Group Type',
      maxlength: 128,
      serialize: 'separator',
      options: { 1: 'Access Control', 2: 'Mailing List' },
    },
    { name: 'cache_date', type: 'Timestamp', title: 'Group Cache Date', readonly: true },
    { name: 'refresh_date', type: 'Timestamp', title: 'Next Group Refresh Time', readonly: true },
    // The reference keeps these comma-separated; here they are lists kept in step with GroupNesting.
    { name: 'parents', type: 'Text', title: 'Group Parents', serialize: 'separator' },
    { name: 'children', type: 'Text', title: 'Group Children', serialize: 'separator', readonly: true },
    flag('is_hidden', 'Group is Hidden', false),
    flag('is_reserved', 'Group is Reserved', false),
    { name: 'created_id', type: 'Int', title: 'Created By Contact ID', fk: 'Contact', onDelete: 'set null' },
    { name: 'modified_id', type: 'Int', title: 'Modified By Contact ID', fk: 'Contact', readonly: true },
    { name: 'frontend_title', type: 'String', title: 'Public Group Title', maxlength: 255, required: true },
    { name: 'frontend_description', type: 'Text', title: 'Public Group Description' },
  ],
  indexes: [
    { name: 'name', fields: ['name'], unique: true },
    { name: 'title', fields: ['title'], unique: true },
    { name: 'group_type', fields: ['group_type'] },
  ],
};

export default Group;
