/** FinancialAccount: the chart of accounts (revenue, asset, liability… accounts). */
import type { EntityDef } from '../../entity-core';
import { FINANCIAL_SETTINGS, flag, id, text } from './fields';

const FinancialAccount: EntityDef = {
  name: 'FinancialAccount',
  table: 'crm_financial_account',
  description: 'An account of the chart of accounts',
  labelField: 'name',
  permissions: FINANCIAL_SETTINGS,
  fields: [
    id('Financial Account ID'),
    text('name', 'Financial Account Name', 255, { required: true, apiRequired: true }),
    { name: 'contact_id', type: 'Int', title: 'Contact ID', fk: 'Contact', description: 'The owner of the account' },
    {
      name: 'financial_account_type_id',
      type: 'Int',
      title: 'Financial Account Type',
      required: true,
      default: 3,
      apiDefault: 3,
      optionGroup: 'financial_account_type',
    },
    text('accounting_code', 'Accounting Code', 64),
    text('account_type_code', 'Account Type Code', 64),
    text('description', 'Financial Account Description'),
    { name: 'parent_id', type: 'Int', title: 'Financial Account Parent', fk: 'FinancialAccount' },
    flag('is_header_account', 'Header Financial Account?', false),
    flag('is_deductible', 'Deductible Financial Account?', true),
    flag('is_tax', 'Tax Financial Account?', false),
    { name: 'tax_rate', type: 'Money', title: 'Financial Account Tax Rate', precision: [10, 8] },
    flag('is_reserved', 'Reserved Financial Account?', false),
    flag('is_active', 'Financial Account is Active', true),
    flag('is_default', 'Default Financial Account', false),
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
};

export default FinancialAccount;
