/** MailingJob: one attempted delivery of a mailing (the parent job; child jobs are batches of it). */
import type { EntityDef } from '../../entity-core';
import { SCHEDULING_PERMISSIONS } from './permissions';

export const JOB_STATUSES = {
  Scheduled: 'Scheduled',
  Running: 'Running',
  Complete: 'Complete',
  Paused: 'Paused',
  Canceled: 'Canceled',
};

const MailingJob: EntityDef = {
  name: 'MailingJob',
  table: 'crm_mailing_job',
  description: 'Attempted delivery of a mailing',
  permissions: SCHEDULING_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Mailing Job ID', required: true, readonly: true },
    {
      name: 'mailing_id',
      type: 'Int',
      title: 'Mailing ID',
      required: true,
      apiRequired: true,
      fk: 'Mailing',
      onDelete: 'cascade',
    },
    { name: 'scheduled_date', type: 'Timestamp', title: 'Mailing Scheduled Date' },
    { name: 'start_date', type: 'Timestamp', title: 'Mailing Job Start Date', uniqueName: 'mailing_job_start_date' },
    { name: 'end_date', type: 'Timestamp', title: 'Mailing Job End Date' },
    {
      name: 'status',
      type: 'String',
      title: 'Mailing Job Status',
      maxlength: 12,
      options: JOB_STATUSES,
      uniqueName: 'mailing_job_status',
    },
    { name: 'is_test', type: 'Boolean', title: 'Mailing Job Is Test?', required: true, default: false },
    { name: 'job_type', type: 'String', title: 'Mailing Job Type', maxlength: 255 },
    { name: 'parent_id', type: 'Int', title: 'Parent ID', fk: 'MailingJob', onDelete: 'cascade' },
    { name: 'job_offset', type: 'Int', title: 'Mailing Job Offset', default: 0 },
    { name: 'job_limit', type: 'Int', title: 'Mailing Job Limit', default: 0 },
  ],
};

export default MailingJob;
