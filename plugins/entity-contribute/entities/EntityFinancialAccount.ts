/** EntityFinancialAccount (4.4.8): which account a financial type (or payment instrument) uses for what. */
import type { EntityDef } from '../../entity-core';
import { FINANCIAL_SETTINGS, id } from './fields';

const EntityFinancialAccount: EntityDef = {
  name: 'EntityFinancialAccount',
  table: 'crm_entity_financial_account',
  description: 'Links a financial type (or a payment instrument) to its accounts, one per relationship',
  permissions: FINANCIAL_SETTINGS,
  fields: [
    id('Entity Financial Account ID'),
    {
      name: 'entity_table',
      type: 'String',
      title: 'Entity Table',
      maxlength: 64,
      required: true,
      apiDefault: 'civicrm_financial_type',
    },
    {
      name: 'entity_id',
      type: 'Int',
      title: 'Entity ID',
      required: true,
      apiRequired: true,
      dynamicFk: { tableField: 'entity_table', entities: ['FinancialType', 'PaymentProcessor'], onDelete: 'cascade' },
    },
    {
      name: 'account_relationship',
      type: 'Int',
      title: 'Account Relationship',
      required: true,
      apiRequired: true,
      optionGroup: 'account_relationship',
    },
    {
      name: 'financial_account_id',
      type: 'Int',
      title: 'Financial Account',
      required: true,
      apiRequired: true,
      fk: 'FinancialAccount',
      onDelete: 'restrict',
    },
  ],
  indexes: [
    {
      name: 'UI_entity_relationship',
      fields: ['entity_id', 'entity_table', 'account_relationship'],
      unique: true,
    },
  ],
};

export default EntityFinancialAccount;
