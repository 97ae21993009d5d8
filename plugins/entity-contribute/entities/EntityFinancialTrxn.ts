/** EntityFinancialTrxn: which part of a transaction belongs to a contribution (or a line item). */
import type { EntityDef } from '../../entity-core';
import { FINANCIAL_RECORDS, id, money } from './fields';

const EntityFinancialTrxn: EntityDef = {
  name: 'EntityFinancialTrxn',
  table: 'crm_entity_financial_trxn',
  description: 'The share of a financial transaction that belongs to a record',
  permissions: FINANCIAL_RECORDS,
  fields: [
    id('Entity Financial Transaction ID'),
    {
      name: 'entity_table',
      type: 'String',
      title: 'Entity Table',
      maxlength: 64,
      required: true,
      apiDefault: 'civicrm_contribution',
    },
    {
      name: 'entity_id',
      type: 'Int',
      title: 'Entity ID',
      required: true,
      apiRequired: true,
      dynamicFk: { tableField: 'entity_table', entities: ['Contribution', 'LineItem'], onDelete: 'cascade' },
    },
    {
      name: 'financial_trxn_id',
      type: 'Int',
      title: 'Financial Transaction ID',
      fk: 'FinancialTrxn',
      onDelete: 'cascade',
    },
    money('amount', 'Amount', { required: true, apiRequired: true }),
  ],
  indexes: [
    { name: 'entity', fields: ['entity_table', 'entity_id'] },
    { name: 'trxn', fields: ['financial_trxn_id'] },
  ],
};

export default EntityFinancialTrxn;
