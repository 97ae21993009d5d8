/** ContributionSoft (4.4.0): a soft credit, a share of a contribution credited to another contact. */
import type { EntityDef } from '../../entity-core';
import { currency, FINANCIAL_RECORDS, flag, id, money, text } from './fields';

const ContributionSoft: EntityDef = {
  name: 'ContributionSoft',
  table: 'crm_contribution_soft',
  description: 'A soft credit: part of a contribution credited to another contact (in honour of, solicited by…)',
  ownerField: 'contact_id',
  permissions: FINANCIAL_RECORDS,
  fields: [
    id('Soft Credit ID', 'contribution_soft_id'),
    {
      name: 'contribution_id',
      type: 'Int',
      title: 'Contribution ID',
      required: true,
      apiRequired: true,
      fk: 'Contribution',
      onDelete: 'cascade',
    },
    {
      name: 'contact_id',
      type: 'Int',
      title: 'Contact ID',
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'cascade',
      uniqueName: 'contribution_soft_contact_id',
    },
    money('amount', 'Soft Credit Amount', { required: true, apiRequired: true }),
    currency,
    { name: 'pcp_id', type: 'Int', title: 'PCP ID' },
    flag('pcp_display_in_roll', 'Soft Contribution Display on PCP', false),
    text('pcp_roll_nickname', 'Soft Contribution PCP Nickname'),
    text('pcp_personal_note', 'Soft Contribution PCP Note'),
    { name: 'soft_credit_type_id', type: 'Int', title: 'Soft Credit Type', optionGroup: 'soft_credit_type' },
  ],
  indexes: [
    { name: 'contribution', fields: ['contribution_id'] },
    { name: 'contact', fields: ['contact_id'] },
  ],
};

export default ContributionSoft;
