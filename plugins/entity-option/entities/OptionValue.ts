/** OptionValue (option data). */
import type { EntityDef } from '../../entity-core';
import { optionPerms } from './permissions';

const OptionValue: EntityDef = {
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
      onDelete: 'cascade',
      aliases: ['option_group_name'],
      pseudoEntity: { entity: 'OptionGroup', labelField: 'title', nameField: 'name' },
    },
    { name: 'label', type: 'String', title: 'Option Label', required: true, apiRequired: true, maxlength: 512 },
    { name: 'value', type: 'String', title: 'Option Value', required: true, maxlength: 512 },
    { name: 'name', type: 'String', title: 'Option Name', maxlength: 255 },
    { name: 'grouping', type: 'String', title: 'Option Grouping Name', maxlength: 255 },
    { name: 'filter', type: 'Int', title: 'Filter', apiDefault: 0, default: 0 },
    { name: 'is_default', type: 'Boolean', title: 'Option is Default?', apiDefault: 0, required: true, default: false },
    { name: 'weight', type: 'Int', title: 'Order', required: true },
    { name: 'description', type: 'Text', title: 'Option Description' },
    { name: 'is_optgroup', type: 'Boolean', title: 'Option is Header?', apiDefault: 0, required: true, default: false },
    {
      name: 'is_reserved',
      type: 'Boolean',
      title: 'Option Is Reserved?',
      apiDefault: 0,
      required: true,
      default: false,
    },
    { name: 'is_active', type: 'Boolean', title: 'Option Is Active?', apiDefault: 1, required: true, default: true },
    { name: 'component_id', type: 'Int', title: 'Component ID', aliases: ['component'] },
    { name: 'visibility_id', type: 'Int', title: 'Option Visibility' },
    { name: 'icon', type: 'String', title: 'Icon', maxlength: 255 },
    { name: 'color', type: 'String', title: 'Color', maxlength: 255 },
  ],
  indexes: [
    { name: 'group_value', fields: ['option_group_id', 'value'] },
    { name: 'group_name', fields: ['option_group_id', 'name'] },
  ],
  permissions: optionPerms,
};

export default OptionValue;
