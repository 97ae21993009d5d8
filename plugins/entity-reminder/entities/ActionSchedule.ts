/**
 * ActionSchedule: a scheduled reminder (4.4.2 API). Stored and served only: sending reminders comes with the
 * mailing plugin, as a job (`Job.send_reminder`) the jobs runner runs.
 */
import type { EntityDef, FieldDef } from '../../entity-core';

const UNITS = { hour: 'hour', day: 'day', week: 'week', month: 'month', year: 'year' };
const BEFORE_AFTER = { before: 'before', after: 'after' };

const unit = (name: string, title: string): FieldDef => ({ name, type: 'String', title, maxlength: 8, options: UNITS });
const interval = (name: string, title: string): FieldDef => ({ name, type: 'Int', title, default: 0, apiDefault: 0 });

const ActionSchedule: EntityDef = {
  name: 'ActionSchedule',
  table: 'crm_action_schedule',
  description: 'Scheduled reminders',
  labelField: 'title',
  permissions: { default: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'Action Schedule ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Name', maxlength: 128, required: true, apiRequired: true },
    { name: 'title', type: 'String', title: 'Title', maxlength: 64, apiRequired: true },
    { name: 'recipient', type: 'String', title: 'Recipient', maxlength: 64 },
    { name: 'limit_to', type: 'Int', title: 'Limit To', options: { 1: 'Limit to', 2: 'Also include' } },
    { name: 'entity_value', type: 'String', title: 'Entity Value', maxlength: 255, serialize: 'separator' },
    { name: 'entity_status', type: 'String', title: 'Entity Status', maxlength: 64, serialize: 'separator' },
    { ...interval('start_action_offset', 'Start Action Offset'), description: 'Reminder Interval.' },
    unit('start_action_unit', 'Start Action Unit'),
    {
      name: 'start_action_condition',
      type: 'String',
      title: 'Start Action Condition',
      maxlength: 64,
      options: BEFORE_AFTER,
    },
    { name: 'start_action_date', type: 'String', title: 'Start Action Date', maxlength: 64 },
    { name: 'is_repeat', type: 'Boolean', title: 'Repeat', required: true, default: false, apiDefault: 0 },
    unit('repetition_frequency_unit', 'Repetition Frequency Unit'),
    interval('repetition_frequency_interval', 'Repetition Frequency Interval'),
    unit('end_frequency_unit', 'End Frequency Unit'),
    interval('end_frequency_interval', 'End Frequency Interval'),
    { name: 'end_action', type: 'String', title: 'End Action', maxlength: 32, options: BEFORE_AFTER },
    { name: 'end_date', type: 'String', title: 'End Date', maxlength: 64 },
    { name: 'is_active', type: 'Boolean', title: 'Schedule is Active?', required: true, default: true, apiDefault: 1 },
    { name: 'recipient_manual', type: 'String', title: 'Recipient Manual', maxlength: 128, serialize: 'json' },
    { name: 'recipient_listing', type: 'String', title: 'Recipient Listing', maxlength: 128, serialize: 'separator' },
    { name: 'body_text', type: 'Text', title: 'Reminder Text' },
    { name: 'body_html', type: 'Text', title: 'Reminder HTML' },
    { name: 'sms_body_text', type: 'Text', title: 'SMS Reminder Text' },
    { name: 'subject', type: 'String', title: 'Reminder Subject', maxlength: 128 },
    {
      name: 'record_activity',
      type: 'Boolean',
      title: 'Record Activity',
      required: true,
      default: false,
      apiDefault: 0,
    },
    {
      name: 'mapping_id',
      type: 'String',
      title: 'Reminder For',
      maxlength: 64,
      description: 'Name/ID of the mapping to use',
    },
    { name: 'group_id', type: 'Int', title: 'Group ID', fk: 'Group', onDelete: 'set null' },
    { name: 'absolute_date', type: 'Date', title: 'Fixed Date for Reminder' },
    { name: 'from_name', type: 'String', title: 'Reminder from Name', maxlength: 255 },
    { name: 'from_email', type: 'Email', title: 'Reminder From Email', maxlength: 255 },
    {
      name: 'mode',
      type: 'String',
      title: 'Message Mode',
      maxlength: 128,
      default: 'Email',
      apiDefault: 'Email',
      options: { Email: 'Email', SMS: 'SMS', 'User Preference': 'User Preference' },
    },
    { name: 'used_for', type: 'String', title: 'Used For', maxlength: 64 },
    {
      name: 'filter_contact_language',
      type: 'String',
      title: 'Filter Contact Language',
      maxlength: 128,
      serialize: 'separator',
    },
    { name: 'communication_language', type: 'String', title: 'Communication Language', maxlength: 8 },
    { name: 'created_date', type: 'Timestamp', title: 'Created Date', readonly: true, default: { sql: 'now' } },
    { name: 'modified_date', type: 'Timestamp', title: 'Modified Date', readonly: true, default: { sql: 'now' } },
    { name: 'effective_start_date', type: 'Timestamp', title: 'Effective start date' },
    { name: 'effective_end_date', type: 'Timestamp', title: 'Effective end date' },
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
};

export default ActionSchedule;
