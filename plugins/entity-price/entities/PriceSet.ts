/** PriceSet: a set of priced fields offered by an event or a contribution page. */
import type { EntityDef } from '../../entity-core';
import { financialType, flag, id, longText, PRICE_SETTINGS, text } from './fields';

const PriceSet: EntityDef = {
  name: 'PriceSet',
  table: 'crm_price_set',
  description: 'A set of priced fields (fees, amounts) that events and contribution pages offer',
  labelField: 'title',
  permissions: PRICE_SETTINGS,
  fields: [
    id('Price Set'),
    { name: 'domain_id', type: 'Int', title: 'Domain ID' },
    text('name', 'Name', 255, { required: true, apiRequired: true }),
    text('title', 'Price Set Title', 255, { required: true, apiRequired: true }),
    flag('is_active', 'Price Set Is Active?', true),
    longText('help_pre', 'Price Set Pre Help'),
    longText('help_post', 'Price Set Post Help'),
    text('javascript', 'Price Set Javascript', 64),
    {
      name: 'extends',
      type: 'String',
      title: 'Price Set Extends',
      maxlength: 255,
      required: true,
      apiRequired: true,
      serialize: 'separator',
      // The components a set serves, by the reference's component ids.
      options: { 1: 'CiviEvent', 2: 'CiviContribute', 3: 'CiviMember' },
    },
    financialType,
    flag('is_quick_config', 'Is Price Set Quick Config?', false),
    flag('is_reserved', 'Price Set Is Reserved', false),
    { name: 'min_amount', type: 'Money', title: 'Minimum Amount', default: 0 },
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
};

export default PriceSet;
