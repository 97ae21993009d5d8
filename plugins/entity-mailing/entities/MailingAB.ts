/** MailingAB (4.6.0): an A/B test between two mailings and the final one derived from the winner. */
import type { EntityDef, FieldDef } from '../../entity-core';
import { MAILING_PART_PERMISSIONS } from './permissions';

const mailing = (name: string, title: string): FieldDef => ({
  name,
  type: 'Int',
  title,
  fk: 'Mailing',
  onDelete: 'set null',
});

const MailingAB: EntityDef = {
  name: 'MailingAB',
  table: 'crm_mailing_abtest',
  description: 'Stores information about abtesting',
  labelField: 'name',
  permissions: MAILING_PART_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'MailingAB ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Name', maxlength: 128 },
    {
      name: 'status',
      type: 'String',
      title: 'Status',
      maxlength: 32,
      options: { Draft: 'Draft', Testing: 'Testing', Final: 'Final' },
    },
    mailing('mailing_id_a', 'Mailing ID (A)'),
    mailing('mailing_id_b', 'Mailing ID (B)'),
    mailing('mailing_id_c', 'Mailing ID (C)'),
    { name: 'domain_id', type: 'Int', title: 'Domain ID', required: true, default: 1, apiDefault: 1 },
    {
      name: 'testing_criteria',
      type: 'String',
      title: 'Testing Criteria',
      maxlength: 32,
      options: {
        subject: 'Test different "Subject" lines',
        from: 'Test different "From" lines',
        full_email: 'Test entirely different emails',
      },
    },
    {
      name: 'winner_criteria',
      type: 'String',
      title: 'Winner Criteria',
      maxlength: 32,
      options: { open: 'Open', unique_click: 'Total Unique Clicks', link_click: 'Total Clicks on a particular link' },
    },
    { name: 'specific_url', type: 'String', title: 'URL for Winner Criteria', maxlength: 255 },
    { name: 'declare_winning_time', type: 'Timestamp', title: 'Declaration Time' },
    { name: 'group_percentage', type: 'Int', title: 'Group Percentage' },
    { name: 'created_id', type: 'Int', title: 'Created By Contact ID', fk: 'Contact', onDelete: 'set null' },
    { name: 'created_date', type: 'Timestamp', title: 'AB Test Created Date', default: { sql: 'now' } },
  ],
};

export default MailingAB;
