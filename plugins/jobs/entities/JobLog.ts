/** JobLog: one line of a scheduled job's run (its start, then its result), written by the runner. */
import type { EntityDef } from '../../entity-core';

const JobLog: EntityDef = {
  name: 'JobLog',
  table: 'crm_job_log',
  description: 'Scheduled jobs log',
  labelField: 'description',
  permissions: { default: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'Job Log ID', required: true, readonly: true },
    { name: 'run_time', type: 'Timestamp', title: 'Timestamp', default: { sql: 'now' }, description: 'Log entry date' },
    { name: 'job_id', type: 'Int', title: 'Job ID', fk: 'Job', onDelete: 'set null', description: 'Pointer to job id' },
    { name: 'name', type: 'String', title: 'Job Name', maxlength: 255, description: 'Title of the job' },
    { name: 'command', type: 'String', title: 'Command', maxlength: 255, description: 'The API call the job made' },
    {
      name: 'description',
      type: 'String',
      title: 'Description',
      maxlength: 255,
      description: 'Title line of log entry',
    },
    {
      name: 'data',
      type: 'Text',
      title: 'Extended Data',
      description: 'Potential extended data for specific job run (e.g. the result or the error).',
    },
  ],
  indexes: [{ name: 'job_run', fields: ['job_id', 'run_time'] }],
};

export default JobLog;
