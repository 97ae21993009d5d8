/** Pledge: a contact's promise to give an amount in installments (its schedule is made in ../pledge-lifecycle.ts). */
import type { EntityDef, FieldDef } from '../../entity-core';
import { PLEDGE_RECORDS } from './permissions';

const int = (name: string, title: string, fallback?: number, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'Int',
  title,
  ...(fallback === undefined ? {} : { default: fallback, apiDefault: fallback }),
  ...extra,
});
const stamp = (name: string, title: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'Timestamp',
  title,
  ...extra,
});

const Pledge: EntityDef = {
  name: 'Pledge',
  table: 'crm_pledge',
  description:
    'Promises to contribute at a future time, either in full, or at regular intervals until a total goal is reached',
  // Row access follows the pledging contact (users' contact row rule through ownerField).
  ownerField: 'contact_id',
  permissions: PLEDGE_RECORDS,
  // APIv3 get answers as the reference's query object does: pledge_amount, pledge_status_id… (and id).
  uniqueNamesOnGet: true,
  fields: [
    { name: 'id', type: 'Int', title: 'Pledge ID', required: true, readonly: true, uniqueName: 'pledge_id' },
    int('contact_id', 'Contact ID', undefined, {
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'cascade',
      uniqueName: 'pledge_contact_id',
    }),
    int('financial_type_id', 'Financial Type ID', undefined, {
      apiRequired: true,
      fk: 'FinancialType',
      onDelete: 'set null',
      uniqueName: 'pledge_financial_type_id',
      aliases: ['contribution_type_id', 'contribution_type'],
      pseudoEntity: { entity: 'FinancialType', labelField: 'name', nameField: 'name' },
    }),
    int('contribution_page_id', 'Contribution Page ID', undefined, { uniqueName: 'pledge_contribution_page_id' }),
    {
      name: 'amount',
      type: 'Money',
      title: 'Total Pledged',
      required: true,
      apiRequired: true,
      uniqueName: 'pledge_amount',
    },
    {
      name: 'original_installment_amount',
      type: 'Money',
      title: 'Original Installment Amount',
      // The amount divided by the installments when not given.
      required: true,
      uniqueName: 'pledge_original_installment_amount',
      aliases: ['installment_amount'],
    },
    { name: 'currency', type: 'String', title: 'Pledge Currency', maxlength: 3, apiDefault: 'USD' },
    {
      name: 'frequency_unit',
      type: 'String',
      title: 'Pledge Frequency Unit',
      maxlength: 8,
      required: true,
      default: 'month',
      apiDefault: 'month',
      uniqueName: 'pledge_frequency_unit',
      options: { day: 'day', week: 'week', month: 'month', year: 'year' },
    },
    int('frequency_interval', 'Pledge Frequency Interval', 1, {
      required: true,
      uniqueName: 'pledge_frequency_interval',
    }),
    int('frequency_day', 'Pledge day', 3, { required: true }),
    int('installments', 'Pledge Number of Installments', 1, { required: true }),
    stamp('start_date', 'Pledge Start Date', { required: true, apiRequired: true, uniqueName: 'pledge_start_date' }),
    stamp('create_date', 'Pledge Made', { required: true, apiDefault: 'now', uniqueName: 'pledge_create_date' }),
    stamp('acknowledge_date', 'Pledge Acknowledged'),
    stamp('modified_date', 'Pledge Modified Date', { readonly: true }),
    stamp('cancel_date', 'Pledge Cancelled Date'),
    stamp('end_date', 'Pledge End Date', { uniqueName: 'pledge_end_date' }),
    int('max_reminders', 'Maximum Number of Reminders', 1),
    int('initial_reminder_day', 'Initial Reminder Day', 5),
    int('additional_reminder_day', 'Additional Reminder Days', 5),
    int('status_id', 'Pledge Status ID', 2, {
      required: true,
      optionGroup: 'pledge_status',
      uniqueName: 'pledge_status_id',
    }),
    {
      name: 'is_test',
      type: 'Boolean',
      title: 'Test',
      required: true,
      default: false,
      apiDefault: 0,
      uniqueName: 'pledge_is_test',
    },
    int('campaign_id', 'Campaign ID', undefined, { uniqueName: 'pledge_campaign_id' }),
  ],
  indexes: [
    { name: 'index_status', fields: ['status_id'] },
    { name: 'contact', fields: ['contact_id'] },
  ],
};

export default Pledge;
