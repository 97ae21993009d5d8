/** PriceSetEntity: which price set an event or a contribution page uses (`entity_table` + `entity_id`). */
import type { EntityDef } from '../../entity-core';
import { id, PRICE_SETTINGS } from './fields';

const PriceSetEntity: EntityDef = {
  name: 'PriceSetEntity',
  table: 'crm_price_set_entity',
  description: 'The price set an event or a contribution page uses',
  permissions: PRICE_SETTINGS,
  fields: [
    id('Price Set Entity ID'),
    { name: 'entity_table', type: 'String', title: 'Entity Table', maxlength: 64, required: true, apiRequired: true },
    {
      name: 'entity_id',
      type: 'Int',
      title: 'Entity ID',
      required: true,
      apiRequired: true,
      // The user goes with the set link (an event deleted takes its link along).
      dynamicFk: { tableField: 'entity_table', onDelete: 'cascade' },
    },
    {
      name: 'price_set_id',
      type: 'Int',
      title: 'Price Set ID',
      required: true,
      apiRequired: true,
      fk: 'PriceSet',
      onDelete: 'cascade',
      pseudoEntity: { entity: 'PriceSet', labelField: 'title', nameField: 'name' },
    },
  ],
  indexes: [{ name: 'UI_entity', fields: ['entity_table', 'entity_id'], unique: true }],
};

export default PriceSetEntity;
