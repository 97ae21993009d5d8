/**
 * ActionLog: one line per reminder sent (or failed) for a schedule, a record (`entity_table`/`entity_id`)
 * and a contact. Unique on those four, so two runners of Job.send_reminder send each reminder once.
 */
import type { EntityDef } from '../../entity-core';

const ActionLog: EntityDef = {
  name: 'ActionLog',
  table: 'crm_action_log',
  description: 'Reminders sent: one line per schedule, record and contact',
  permissions: { default: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'Action Schedule ID', required: true, readonly: true },
    { name: 'contact_id', type: 'Int', title: 'Contact ID', fk: 'Contact', onDelete: 'cascade' },
    { name: 'entity_id', type: 'Int', title: 'Entity ID', required: true, apiRequired: true },
    {
      name: 'entity_table',
      type: 'String',
      title: 'Entity Table',
      maxlength: 255,
      description: 'The table of the record the reminder was about, e.g. civicrm_activity',
    },
    {
      name: 'action_schedule_id',
      type: 'Int',
      title: 'Schedule ID',
      required: true,
      apiRequired: true,
      fk: 'ActionSchedule',
      onDelete: 'cascade',
    },
    { name: 'action_date_time', type: 'Timestamp', title: 'Action Date And Time' },
    { name: 'is_error', type: 'Boolean', title: 'Error?', required: true, default: false, apiDefault: 0 },
    { name: 'message', type: 'Text', title: 'Message' },
    { name: 'repetition_number', type: 'Int', title: 'Repetition Number' },
    { name: 'reference_date', type: 'Timestamp', title: 'Reference Date' },
  ],
  indexes: [
    {
      name: 'UI_schedule_entity_contact',
      fields: ['action_schedule_id', 'entity_table', 'entity_id', 'contact_id'],
      unique: true,
    },
  ],
};

export default ActionLog;
