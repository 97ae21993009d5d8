/** MailingEventQueue (minimal): one message of a job to one contact's email, with its security hash. */
import type { EntityDef } from '../../entity-core';
import { QUEUE_PERMISSIONS } from './permissions';

const MailingEventQueue: EntityDef = {
  name: 'MailingEventQueue',
  table: 'crm_mailing_event_queue',
  description: 'Intended recipients of a mailing',
  permissions: QUEUE_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Mailing Event Queue ID', required: true, readonly: true },
    { name: 'job_id', type: 'Int', title: 'Job ID', fk: 'MailingJob', onDelete: 'set null' },
    { name: 'mailing_id', type: 'Int', title: 'Mailing ID', fk: 'Mailing', onDelete: 'set null' },
    { name: 'is_test', type: 'Boolean', title: 'Test', required: true, default: false },
    { name: 'email_id', type: 'Int', title: 'Email ID', fk: 'Email', onDelete: 'set null' },
    {
      name: 'contact_id',
      type: 'Int',
      title: 'Contact ID',
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'cascade',
    },
    { name: 'hash', type: 'String', title: 'Security Hash', maxlength: 255, required: true, apiRequired: true },
    { name: 'phone_id', type: 'Int', title: 'Phone ID', fk: 'Phone', onDelete: 'set null' },
  ],
  indexes: [
    { name: 'index_hash', fields: ['hash'] },
    { name: 'job_contact', fields: ['job_id', 'contact_id'] },
  ],
};

export default MailingEventQueue;
