/** ImportJob: one run of `crm import` (or `Import.run`), with the last batch committed, so a crash resumes there. */
import type { EntityDef } from '../../entity-core';

const ImportJob: EntityDef = {
  name: 'ImportJob',
  table: 'crm_import_job',
  description: 'Contact imports: their file, mapping, rules, progress (the last committed batch) and totals',
  labelField: 'file_name',
  permissions: { default: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'Import Job ID', required: true, readonly: true },
    { name: 'file_name', type: 'String', title: 'File', maxlength: 1024, description: 'The CSV file imported' },
    { name: 'file_size', type: 'Int', title: 'File Size', description: 'Its size in bytes when the import began' },
    { name: 'options', type: 'Text', title: 'Options', description: 'Mapping, duplicate rule, batch size (JSON)' },
    {
      name: 'status',
      type: 'String',
      title: 'Status',
      maxlength: 16,
      required: true,
      default: 'running',
      options: { running: 'Running', done: 'Done', failed: 'Failed' },
    },
    {
      name: 'last_batch',
      type: 'Int',
      title: 'Last Committed Batch',
      required: true,
      default: 0,
      description: 'Batches 1..last_batch are in the database; a resume skips their rows',
    },
    { name: 'rows_read', type: 'Int', title: 'Rows Read', required: true, default: 0 },
    { name: 'created', type: 'Int', title: 'Created', required: true, default: 0 },
    { name: 'updated', type: 'Int', title: 'Updated', required: true, default: 0 },
    { name: 'skipped', type: 'Int', title: 'Skipped', required: true, default: 0 },
    { name: 'rejected', type: 'Int', title: 'Rejected', required: true, default: 0 },
    { name: 'error', type: 'Text', title: 'Error', description: 'Why the import stopped, when it failed' },
    { name: 'started_date', type: 'Timestamp', title: 'Started', default: { sql: 'now' } },
    { name: 'modified_date', type: 'Timestamp', title: 'Modified' },
  ],
};

export default ImportJob;
