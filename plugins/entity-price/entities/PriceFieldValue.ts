/** PriceFieldValue: one option of a price field, with its amount and financial type. */
import type { EntityDef } from '../../entity-core';
import { financialType, flag, id, longText, PRICE_SETTINGS, text, visibility } from './fields';

const PriceFieldValue: EntityDef = {
  name: 'PriceFieldValue',
  table: 'crm_price_field_value',
  description: 'An option of a price field: its label, amount and financial type',
  labelField: 'label',
  permissions: PRICE_SETTINGS,
  fields: [
    id('Price Field Value ID'),
    {
      name: 'price_field_id',
      type: 'Int',
      title: 'Price Field ID',
      required: true,
      apiRequired: true,
      fk: 'PriceField',
      onDelete: 'cascade',
      pseudoEntity: { entity: 'PriceField', labelField: 'label', nameField: 'name' },
    },
    text('name', 'Name'),
    text('label', 'Label'),
    longText('description', 'Description'),
    longText('help_pre', 'Help Pre'),
    longText('help_post', 'Help Post'),
    // The reference's decimal(18,9): amounts below a cent are kept.
    { name: 'amount', type: 'Money', title: 'Amount', precision: [18, 9], required: true, apiRequired: true },
    { name: 'count', type: 'Int', title: 'Count' },
    { name: 'max_value', type: 'Int', title: 'Max Value' },
    { name: 'weight', type: 'Int', title: 'Order', default: 1, apiDefault: 1 },
    { name: 'membership_type_id', type: 'Int', title: 'Membership Type ID' },
    { name: 'membership_num_terms', type: 'Int', title: 'Membership Num Terms' },
    flag('is_default', 'Is Default Price Field Option?', false),
    flag('is_active', 'Price Field Value is Active', true),
    financialType,
    { name: 'non_deductible_amount', type: 'Money', title: 'Non-deductible Amount', required: true, default: 0 },
    visibility('Price Field Option Visibility'),
  ],
  indexes: [{ name: 'price_field', fields: ['price_field_id'] }],
};

export default PriceFieldValue;
