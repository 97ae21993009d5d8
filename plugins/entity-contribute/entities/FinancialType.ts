/** FinancialType: what a payment is for (Donation, Member Dues…), tied to its accounts by EntityFinancialAccount. */
import type { EntityDef } from '../../entity-core';
import { FINANCIAL_SETTINGS, flag, id, text } from './fields';

const FinancialType: EntityDef = {
  name: 'FinancialType',
  table: 'crm_financial_type',
  description: 'Formerly contribution types: what a payment is for',
  labelField: 'name',
  permissions: FINANCIAL_SETTINGS,
  fields: [
    id('Financial Type ID'),
    text('name', 'Financial Type', 64, { required: true, apiRequired: true }),
    text('description', 'Description'),
    flag('is_deductible', 'Is Tax Deductible?', true),
    flag('is_reserved', 'Financial Type is Reserved?', false),
    flag('is_active', 'Financial Type Is Active?', true),
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
};

export default FinancialType;
