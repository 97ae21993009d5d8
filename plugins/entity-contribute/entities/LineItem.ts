/** LineItem: one priced item of a contribution (the whole amount by default). */
import type { EntityDef } from '../../entity-core';
import { FINANCIAL_RECORDS, id, money, text } from './fields';

const LineItem: EntityDef = {
  name: 'LineItem',
  table: 'crm_line_item',
  description: 'A line of a contribution: a quantity at a unit price, of a financial type',
  labelField: 'label',
  permissions: FINANCIAL_RECORDS,
  fields: [
    id('Line Item ID'),
    {
      name: 'entity_table',
      type: 'String',
      title: 'Line Item Entity Type',
      maxlength: 64,
      required: true,
      apiDefault: 'civicrm_contribution',
    },
    {
      name: 'entity_id',
      type: 'Int',
      title: 'Line Item Entity',
      required: true,
      // What the line pays for, as in the reference: the contribution itself, or a membership or a participant
      // (deleting that record deletes its lines).
      dynamicFk: {
        tableField: 'entity_table',
        entities: ['Contribution', 'Membership', 'Participant'],
        onDelete: 'cascade',
      },
    },
    { name: 'contribution_id', type: 'Int', title: 'Contribution ID', fk: 'Contribution', onDelete: 'cascade' },
    { name: 'price_field_id', type: 'Int', title: 'Price Field ID' },
    text('label', 'Line Item Label'),
    money('qty', 'Line Item Quantity', { required: true, apiRequired: true }),
    money('unit_price', 'Unit Price', { required: true, apiRequired: true }),
    money('line_total', 'Line Item Total', { required: true }),
    { name: 'participant_count', type: 'Int', title: 'Line Item Participant Count' },
    { name: 'price_field_value_id', type: 'Int', title: 'Option ID' },
    { name: 'financial_type_id', type: 'Int', title: 'Financial Type ID', fk: 'FinancialType', onDelete: 'set null' },
    money('non_deductible_amount', 'Non-deductible Amount', { required: true, default: 0 }),
    money('tax_amount', 'Tax Amount', { default: 0 }),
    { name: 'membership_num_terms', type: 'Int', title: 'Number of membership terms purchased' },
  ],
  indexes: [
    { name: 'entity', fields: ['entity_table', 'entity_id'] },
    { name: 'contribution', fields: ['contribution_id'] },
  ],
};

export default LineItem;
