/** PriceField: one field of a price set (a text amount, a radio of options…). */
import type { EntityDef } from '../../entity-core';
import { flag, id, longText, PRICE_SETTINGS, text, visibility } from './fields';

const PriceField: EntityDef = {
  name: 'PriceField',
  table: 'crm_price_field',
  description: 'A field of a price set: its input type and the options it offers',
  labelField: 'label',
  permissions: PRICE_SETTINGS,
  fields: [
    id('Price Field ID'),
    {
      name: 'price_set_id',
      type: 'Int',
      title: 'Price Set ID',
      required: true,
      apiRequired: true,
      fk: 'PriceSet',
      // A set's fields go with it.
      onDelete: 'cascade',
      pseudoEntity: { entity: 'PriceSet', labelField: 'title', nameField: 'name' },
    },
    text('name', 'Name', 255, { required: true, apiRequired: true }),
    text('label', 'Label', 255, { required: true, apiRequired: true }),
    {
      name: 'html_type',
      type: 'String',
      title: 'Html Type',
      maxlength: 12,
      required: true,
      apiRequired: true,
      options: { Text: 'Text / Numeric Quantity', Select: 'Select', Radio: 'Radio', CheckBox: 'CheckBox' },
    },
    flag('is_enter_qty', 'Price Field Quantity Required?', false),
    longText('help_pre', 'Price Field Pre Text'),
    longText('help_post', 'Price Field Post Text'),
    { name: 'weight', type: 'Int', title: 'Order', default: 1, apiDefault: 1 },
    flag('is_display_amounts', 'Price Field Show Amounts?', true),
    { name: 'options_per_line', type: 'Int', title: 'Price Field Options per Row', default: 1, apiDefault: 1 },
    flag('is_active', 'Price Field Is Active?', true),
    flag('is_required', 'Price Field is Required?', true),
    { name: 'active_on', type: 'Timestamp', title: 'Price Field Start Date' },
    { name: 'expire_on', type: 'Timestamp', title: 'Price Field End Date' },
    text('javascript', 'Price Field Javascript'),
    visibility('Price Field Visibility'),
  ],
  indexes: [
    { name: 'index_name', fields: ['name'] },
    { name: 'price_set', fields: ['price_set_id'] },
  ],
};

export default PriceField;
