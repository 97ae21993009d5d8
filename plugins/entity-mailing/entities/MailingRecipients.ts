/** MailingRecipients: the contacts (and the email of each) a scheduled mailing goes to. */
import type { EntityDef } from '../../entity-core';
import { SCHEDULING_PERMISSIONS } from './permissions';

const MailingRecipients: EntityDef = {
  name: 'MailingRecipients',
  table: 'crm_mailing_recipients',
  description: 'Stores information about the recipients of a mailing',
  permissions: SCHEDULING_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Mailing Recipients ID', required: true, readonly: true },
    {
      name: 'mailing_id',
      type: 'Int',
      title: 'Mailing ID',
      required: true,
      apiRequired: true,
      fk: 'Mailing',
      onDelete: 'cascade',
    },
    {
      name: 'contact_id',
      type: 'Int',
      title: 'Recipient ID',
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'cascade',
    },
    { name: 'email_id', type: 'Int', title: 'Email ID', fk: 'Email', onDelete: 'set null' },
    { name: 'phone_id', type: 'Int', title: 'Phone ID', fk: 'Phone', onDelete: 'set null' },
  ],
  indexes: [{ name: 'mailing_contact', fields: ['mailing_id', 'contact_id'] }],
};

export default MailingRecipients;
