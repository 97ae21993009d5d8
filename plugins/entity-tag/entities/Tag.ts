/** Tag: a flat or hierarchical category for contacts (and activities, cases, attachments); tag sets group tags. */
import type { EntityDef } from '../../entity-core';
import { TAG_USED_FOR } from './used-for';

const Tag: EntityDef = {
  name: 'Tag',
  table: 'crm_tag',
  description: 'Flat or hierarchical classification of contacts and other records; a tag set groups free tags',
  labelField: 'label',
  // §6.2: get/create/update `access CiviCRM`; delete and other actions `administer CiviCRM`.
  permissions: { get: 'access CRM', create: 'access CRM', update: 'access CRM', delete: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'Tag ID', required: true, readonly: true, aliases: ['tag'] },
    { name: 'name', type: 'String', title: 'Tag Name', maxlength: 64, required: true, apiRequired: true },
    { name: 'label', type: 'String', title: 'Tag Label', maxlength: 64, required: true },
    { name: 'description', type: 'String', title: 'Description', maxlength: 255 },
    {
      name: 'parent_id',
      type: 'Int',
      title: 'Parent Tag ID',
      fk: 'Tag',
      onDelete: 'restrict',
      pseudoEntity: { entity: 'Tag', labelField: 'label', nameField: 'name' },
    },
    { name: 'is_selectable', type: 'Boolean', title: 'Display Tag?', required: true, default: true },
    { name: 'is_reserved', type: 'Boolean', title: 'Reserved', required: true, default: false },
    { name: 'is_tagset', type: 'Boolean', title: 'Tagset', required: true, default: false },
    {
      name: 'used_for',
      type: 'String',
      title: 'Used For',
      maxlength: 64,
      serialize: true,
      options: TAG_USED_FOR,
      apiDefault: ['civicrm_contact'],
    },
    { name: 'created_id', type: 'Int', title: 'Created By Contact ID', fk: 'Contact', onDelete: 'set null' },
    { name: 'color', type: 'String', title: 'Color', maxlength: 255, description: 'Hex color value e.g. #ffffff' },
    { name: 'created_date', type: 'Timestamp', title: 'Tag Created Date', readonly: true, default: { sql: 'now' } },
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
};

export default Tag;
