/** OptionGroup (option data). */
import type { EntityDef } from '../../entity-core';
import { optionPerms } from './permissions';

const OptionGroup: EntityDef = {
  name: 'OptionGroup',
  table: 'crm_option_group',
  labelField: 'title',
  fields: [
    { name: 'id', type: 'Int', title: 'Option Group ID', required: true },
    { name: 'name', type: 'String', title: 'Option Group Name', required: true, apiRequired: true, maxlength: 64 },
    { name: 'title', type: 'String', title: 'Option Group Title', maxlength: 255 },
    { name: 'description', type: 'Text', title: 'Option Group Description' },
    { name: 'data_type', type: 'String', title: 'Data Type for this option group', maxlength: 128 },
    {
      name: 'is_reserved',
      type: 'Boolean',
      title: 'Option Group Is Reserved?',
      apiDefault: 1,
      required: true,
      default: true,
    },
    {
      name: 'is_active',
      type: 'Boolean',
      title: 'Option Group Is Active?',
      apiDefault: 1,
      required: true,
      default: true,
    },
    {
      name: 'is_locked',
      type: 'Boolean',
      title: 'Option Group Is Locked',
      apiDefault: 0,
      required: true,
      default: false,
    },
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
  permissions: optionPerms,
};

export default OptionGroup;
