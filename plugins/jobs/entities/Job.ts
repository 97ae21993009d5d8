/** Job: a scheduled job, an API call (`api_entity`.`api_action` with `parameters`) run at its frequency. */
import type { EntityDef } from '../../entity-core';

/** How often a job runs; `Always` is every interval of the runner (`pluginConfig.jobs.intervalSeconds`). */
export const RUN_FREQUENCIES: Record<string, string> = {
  Always: 'Every time cron job is run',
  Hourly: 'Hourly',
  Daily: 'Daily',
  Weekly: 'Weekly',
  Monthly: 'Monthly',
  Quarter: 'Quarterly',
  Yearly: 'Yearly',
};

const Job: EntityDef = {
  name: 'Job',
  table: 'crm_job',
  description: 'Scheduled job',
  labelField: 'name',
  permissions: { default: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'Job ID', required: true, readonly: true },
    {
      name: 'run_frequency',
      type: 'String',
      title: 'Job Frequency',
      maxlength: 8,
      default: 'Daily',
      apiDefault: 'Daily',
      options: RUN_FREQUENCIES,
      description: 'Scheduled job run frequency.',
    },
    { name: 'last_run', type: 'Timestamp', title: 'Last Run', description: 'When was this cron entry last run' },
    {
      name: 'last_run_end',
      type: 'Timestamp',
      title: 'Last Run End',
      description: 'When did this cron entry last finish running',
    },
    {
      name: 'scheduled_run_date',
      type: 'Timestamp',
      title: 'Scheduled Run Date',
      description: 'When is this cron entry scheduled to run (not before; the runner moves it on at each run)',
    },
    {
      name: 'name',
      type: 'String',
      title: 'Job Name',
      maxlength: 255,
      apiRequired: true,
      description: 'Title of the job',
    },
    { name: 'description', type: 'String', title: 'Job Description', maxlength: 255 },
    {
      name: 'api_entity',
      type: 'String',
      title: 'API Entity',
      maxlength: 255,
      apiRequired: true,
      description: 'Entity of the job api call',
    },
    {
      name: 'api_action',
      type: 'String',
      title: 'API Action',
      maxlength: 255,
      apiRequired: true,
      description: 'Action of the job api call',
    },
    {
      name: 'parameters',
      type: 'Text',
      title: 'API Parameters',
      description: 'Parameters of the call: one `key=value` a line, or a JSON object',
    },
    { name: 'is_active', type: 'Boolean', title: 'Job Is Active?', required: true, default: true, apiDefault: 1 },
  ],
  indexes: [{ name: 'due', fields: ['is_active', 'scheduled_run_date'] }],
};

export default Job;
