/** CustomGroup: a set of custom fields on one kind of record, stored in its own table (docs/custom-data.md). */
import type { EntityDef } from '../../entity-core';

/** Contact types a group may extend: their values sit on Contact, for contacts of that type only. */
export const CONTACT_TYPES = new Set(['Individual', 'Organization', 'Household']);

/** 5.0: entities that never take custom data (plus the custom-data entities themselves). */
export const EXCLUDED = new Set([
  'CaseContact',
  'CustomField',
  'CustomGroup',
  'CustomValue',
  'Domain',
  'File',
  'FinancialType',
  'MailingJob',
  'SavedSearch',
  'UFField',
  'UFJoin',
  'GroupContact',
  'EntityTag',
  'PledgePayment',
]);

/**
 * The entity a group's `extends` names (5.0: almost any entity): a contact type → Contact; an installed
 * entity that is not excluded → itself; otherwise undefined. `has` says whether an entity is installed.
 */
export function extendedName(kind: string, has: (name: string) => boolean): string | undefined {
  if (CONTACT_TYPES.has(kind)) return 'Contact';
  if (EXCLUDED.has(kind) || kind.startsWith('Custom_') || !has(kind)) return undefined;
  return kind;
}

const CustomGroup: EntityDef = {
  name: 'CustomGroup',
  table: 'crm_custom_group',
  description: 'A group of custom fields extending one kind of record (contacts, activities, groups…)',
  labelField: 'title',
  permissions: { get: 'access CRM', meta: 'access CRM', default: 'administer CRM' },
  indexes: [{ name: 'unique_name', fields: ['name'], unique: true }],
  fields: [
    { name: 'id', type: 'Int', title: 'Custom Group ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Custom Group Name', maxlength: 64, required: true },
    { name: 'title', type: 'String', title: 'Custom Group Title', maxlength: 64, required: true, apiRequired: true },
    {
      name: 'extends',
      type: 'String',
      title: 'Custom Group Extends',
      maxlength: 255,
      required: true,
      apiRequired: true,
      description:
        'The entity the fields are added to (Contact, Activity, Group, Relationship…; 5.0: almost any entity), ' +
        'or a contact type (Individual, Organization, Household)',
    },
    { name: 'extends_entity_column_id', type: 'Int', title: 'Custom Group Subtype List' },
    {
      name: 'extends_entity_column_value',
      type: 'String',
      title: 'Custom Group Subtype',
      maxlength: 255,
      serialize: 'separator',
      description: 'Sub-types (contact sub-types, activity types, relationship types) the group applies to',
    },
    {
      name: 'style',
      type: 'String',
      title: 'Display Style',
      maxlength: 15,
      default: 'Inline',
      options: { Tab: 'Tab', Inline: 'Inline', 'Tab with table': 'Tab with table' },
    },
    { name: 'collapse_display', type: 'Boolean', title: 'Collapse Custom Group?', required: true, default: false },
    { name: 'help_pre', type: 'Text', title: 'Custom Group Pre Text' },
    { name: 'help_post', type: 'Text', title: 'Custom Group Post Text' },
    { name: 'weight', type: 'Int', title: 'Order', required: true, default: 1 },
    { name: 'is_active', type: 'Boolean', title: 'Custom Group Is Active?', required: true, default: true },
    { name: 'table_name', type: 'String', title: 'Table Name', maxlength: 255, readonly: true },
    { name: 'is_multiple', type: 'Boolean', title: 'Supports Multiple Records', required: true, default: false },
    { name: 'min_multiple', type: 'Int', title: 'Minimum Multiple Records' },
    { name: 'max_multiple', type: 'Int', title: 'Maximum Multiple Records' },
    { name: 'collapse_adv_display', type: 'Boolean', title: 'Collapse Group Display', required: true, default: false },
    { name: 'created_id', type: 'Int', title: 'Created By Contact ID', fk: 'Contact', onDelete: 'set null' },
    { name: 'created_date', type: 'Timestamp', title: 'Custom Group Created Date', default: { sql: 'now' } },
    { name: 'is_reserved', type: 'Boolean', title: 'Is Reserved', required: true, default: false },
    { name: 'is_public', type: 'Boolean', title: 'Is Public', required: true, default: true },
    { name: 'icon', type: 'String', title: 'Icon', maxlength: 255 },
  ],
};

export default CustomGroup;
