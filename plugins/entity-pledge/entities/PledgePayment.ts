/** PledgePayment: one scheduled installment of a pledge, and the contribution that paid it. */
import type { EntityDef } from '../../entity-core';
import { PLEDGE_PAYMENTS } from './permissions';

const PledgePayment: EntityDef = {
  name: 'PledgePayment',
  table: 'crm_pledge_payment',
  description: 'A scheduled installment of a pledge and the contribution that paid it',
  // Row access follows the pledge's contact.
  ownerField: 'pledge_id.contact_id',
  permissions: PLEDGE_PAYMENTS,
  fields: [
    { name: 'id', type: 'Int', title: 'Payment ID', required: true, readonly: true, uniqueName: 'pledge_payment_id' },
    {
      name: 'pledge_id',
      type: 'Int',
      title: 'Pledge ID',
      required: true,
      apiRequired: true,
      fk: 'Pledge',
      onDelete: 'cascade',
    },
    { name: 'contribution_id', type: 'Int', title: 'Contribution ID', fk: 'Contribution', onDelete: 'cascade' },
    {
      name: 'scheduled_amount',
      type: 'Money',
      title: 'Scheduled Amount',
      required: true,
      uniqueName: 'pledge_payment_scheduled_amount',
    },
    { name: 'actual_amount', type: 'Money', title: 'Actual Amount', uniqueName: 'pledge_payment_actual_amount' },
    { name: 'currency', type: 'String', title: 'Currency', maxlength: 3 },
    {
      name: 'scheduled_date',
      type: 'Timestamp',
      title: 'Scheduled Date',
      required: true,
      uniqueName: 'pledge_payment_scheduled_date',
    },
    { name: 'reminder_date', type: 'Timestamp', title: 'Last Reminder', uniqueName: 'pledge_payment_reminder_date' },
    {
      name: 'reminder_count',
      type: 'Int',
      title: 'Reminders Sent',
      default: 0,
      apiDefault: 0,
      uniqueName: 'pledge_payment_reminder_count',
    },
    {
      name: 'status_id',
      type: 'Int',
      title: 'Payment Status',
      optionGroup: 'contribution_status',
      uniqueName: 'pledge_payment_status_id',
    },
  ],
  indexes: [
    { name: 'index_contribution_pledge', fields: ['contribution_id', 'pledge_id'] },
    { name: 'index_status', fields: ['status_id'] },
  ],
};

export default PledgePayment;
