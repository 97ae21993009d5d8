/** LocationType, OptionGroup, OptionValue declarations. */
import type { EntityDef, PermissionMap } from '../entity-core';

const AC = 'access CRM';
const optionPerms: PermissionMap = {
  get: AC,
  create: { allOf: [AC, { anyOf: ['administer CRM', 'manage event profiles'] }] },
  update: { allOf: [AC, { anyOf: ['administer CRM', 'manage event profiles'] }] },
  delete: 'administer CRM',
  default: 'administer CRM',
};

export const LocationType: EntityDef = {
  name: 'LocationType',
  table: 'crm_location_type',
  labelField: 'display_name',
  fields: [
    { name: 'id', type: 'Int', title: 'Location Type ID', required: true },
    { name: 'name', type: 'String', title: 'Location Type', required: true, apiRequired: true, maxlength: 64 },
    { name: 'display_name', type: 'String', title: 'Display Name', maxlength: 64 },
    { name: 'vcard_name', type: 'String', title: 'vCard Location Type', maxlength: 64 },
    { name: 'description', type: 'String', title: 'Description', maxlength: 255 },
    { name: 'is_reserved', type: 'Boolean', title: 'Location Type is Reserved?', apiDefault: 0 },
    { name: 'is_active', type: 'Boolean', title: 'Location Type is Active?', apiDefault: 1 },
    { name: 'is_default', type: 'Boolean', title: 'Default Location Type?', apiDefault: 0 },
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
  permissions: {
    get: AC,
    create: 'administer CRM',
    update: 'administer CRM data',
    delete: 'administer CRM data',
    default: 'administer CRM',
  },
};

export const OptionGroup: EntityDef = {
  name: 'OptionGroup',
  table: 'crm_option_group',
  labelField: 'title',
  fields: [
    { name: 'id', type: 'Int', title: 'Option Group ID', required: true },
    { name: 'name', type: 'String', title: 'Option Group Name', required: true, apiRequired: true, maxlength: 64 },
    { name: 'title', type: 'String', title: 'Option Group Title', maxlength: 255 },
    { name: 'description', type: 'Text', title: 'Option Group Description' },
    { name: 'data_type', type: 'String', title: 'Data Type for this option group', maxlength: 128 },
    { name: 'is_reserved', type: 'Boolean', title: 'Option Group Is Reserved?', apiDefault: 1 },
    { name: 'is_active', type: 'Boolean', title: 'Option Group Is Active?', apiDefault: 1 },
    { name: 'is_locked', type: 'Boolean', title: 'Option Group Is Locked', apiDefault: 0 },
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
  permissions: optionPerms,
};

export const OptionValue: EntityDef = {
  name: 'OptionValue',
  table: 'crm_option_value',
  labelField: 'label',
  fields: [
    { name: 'id', type: 'Int', title: 'Option Value ID', required: true },
    {
      name: 'option_group_id',
      type: 'Int',
      title: 'Option Group ID',
      required: true,
      apiRequired: true,
      fk: 'OptionGroup',
      aliases: ['option_group_name'],
      pseudoEntity: { entity: 'OptionGroup', labelField: 'title', nameField: 'name' },
    },
    { name: 'label', type: 'String', title: 'Option Label', required: true, apiRequired: true, maxlength: 512 },
    { name: 'value', type: 'String', title: 'Option Value', required: true, maxlength: 512 },
    { name: 'name', type: 'String', title: 'Option Name', maxlength: 255 },
    { name: 'grouping', type: 'String', title: 'Option Grouping Name', maxlength: 255 },
    { name: 'filter', type: 'Int', title: 'Filter', apiDefault: 0 },
    { name: 'is_default', type: 'Boolean', title: 'Option is Default?', apiDefault: 0 },
    { name: 'weight', type: 'Int', title: 'Order', required: true },
    { name: 'description', type: 'Text', title: 'Option Description' },
    { name: 'is_optgroup', type: 'Boolean', title: 'Option is Header?', apiDefault: 0 },
    { name: 'is_reserved', type: 'Boolean', title: 'Option Is Reserved?', apiDefault: 0 },
    { name: 'is_active', type: 'Boolean', title: 'Option Is Active?', apiDefault: 1 },
    { name: 'component_id', type: 'Int', title: 'Component ID', aliases: ['component'] },
    { name: 'visibility_id', type: 'Int', title: 'Option Visibility' },
    { name: 'icon', type: 'String', title: 'Icon', maxlength: 255 },
    { name: 'color', type: 'String', title: 'Color', maxlength: 255 },
  ],
  indexes: [
    { name: 'index_option_group_id_value', fields: ['value', 'option_group_id'] },
    { name: 'index_option_group_id_name', fields: ['name', 'option_group_id'] },
  ],
  permissions: optionPerms,
};
