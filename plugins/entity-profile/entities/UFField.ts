/**
 * UFField: one field of a profile: a field of the contact (`field_type` Contact, Individual, Organization,
 * Household) or of another entity, with `location_type_id` / `phone_type_id` / `website_type_id` for location fields.
 */
import type { EntityDef, FieldDef } from '../../entity-core';
import { PROFILE_ADMIN } from './permissions';

const flag = (name: string, title: string, value = false): FieldDef => ({
  name,
  type: 'Boolean',
  title,
  required: true,
  default: value,
  apiDefault: value ? 1 : 0,
});

/** The types a profile field may have (the entity its field belongs to). */
export const FIELD_TYPES = [
  'Contact',
  'Individual',
  'Organization',
  'Household',
  'Activity',
  'Contribution',
  'Membership',
  'Participant',
  'Case',
];

export const VISIBILITY = {
  'User and User Admin Only': 'User and User Admin Only',
  'Public Pages': 'Public Pages',
  'Public Pages and Listings': 'Public Pages and Listings',
};

const UFField: EntityDef = {
  name: 'UFField',
  table: 'crm_uf_field',
  description: 'The fields of a profile and their properties',
  labelField: 'label',
  permissions: PROFILE_ADMIN,
  fields: [
    { name: 'id', type: 'Int', title: 'Profile Field ID', required: true, readonly: true },
    {
      name: 'uf_group_id',
      type: 'Int',
      title: 'Profile ID',
      required: true,
      apiRequired: true,
      fk: 'UFGroup',
      onDelete: 'cascade',
      pseudoEntity: { entity: 'UFGroup', labelField: 'title', nameField: 'name' },
    },
    {
      name: 'field_name',
      type: 'String',
      title: 'Profile Field Name',
      maxlength: 64,
      required: true,
      apiRequired: true,
    },
    flag('is_active', 'Profile Field Is Active', true),
    flag('is_view', 'Profile Is View Only'),
    flag('is_required', 'Profile Field Is Required'),
    { name: 'weight', type: 'Int', title: 'Order', required: true, default: 1 },
    { name: 'help_post', type: 'Text', title: 'Profile Field Post Help' },
    { name: 'help_pre', type: 'Text', title: 'Profile Field Pre Help' },
    {
      name: 'visibility',
      type: 'String',
      title: 'Profile Field Visibility',
      maxlength: 32,
      default: 'User and User Admin Only',
      apiDefault: 'User and User Admin Only',
      options: VISIBILITY,
    },
    flag('in_selector', 'Profile Field Is a Filter'),
    flag('is_searchable', 'Profile Field Is Searchable'),
    {
      name: 'location_type_id',
      type: 'Int',
      title: 'Location Type ID',
      fk: 'LocationType',
      onDelete: 'set null',
      pseudoEntity: { entity: 'LocationType', labelField: 'display_name', nameField: 'name' },
    },
    { name: 'phone_type_id', type: 'Int', title: 'Profile Field Phone Type', optionGroup: 'phone_type' },
    { name: 'website_type_id', type: 'Int', title: 'Profile Field Website Type', optionGroup: 'website_type' },
    { name: 'label', type: 'String', title: 'Profile Field Label', maxlength: 255, required: true },
    {
      name: 'field_type',
      type: 'String',
      title: 'Profile Field Type',
      maxlength: 255,
      options: Object.fromEntries(FIELD_TYPES.map((type) => [type, type])),
    },
    flag('is_reserved', 'Profile Field Is Reserved'),
    flag('is_multi_summary', 'Profile Field Supports Multiple'),
  ],
  indexes: [
    { name: 'IX_website_type_id', fields: ['website_type_id'] },
    { name: 'uf_group_id', fields: ['uf_group_id', 'weight'] },
  ],
};

export default UFField;
