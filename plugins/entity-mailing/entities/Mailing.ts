/** Mailing: a mass email, its content, components, tracking flags, schedule and approval (4.3.0; 4.6.0 defaults). */
import type { EntityDef, FieldDef } from '../../entity-core';
import { MAILING_PERMISSIONS } from './permissions';

const flag = (name: string, title: string): FieldDef => ({
  name,
  type: 'Boolean',
  title,
  required: true,
  default: false,
});
const component = (name: string, title: string): FieldDef => ({
  name,
  type: 'Int',
  title,
  fk: 'MailingComponent',
  onDelete: 'set null',
});
const contact = (name: string, title: string): FieldDef => ({
  name,
  type: 'Int',
  title,
  fk: 'Contact',
  onDelete: 'set null',
});

export const MAILING_TYPES = { standalone: 'Standalone', experiment: 'Experimental', winner: 'Winner' };
export const VISIBILITY = { 'User and User Admin Only': 'User and User Admin Only', 'Public Pages': 'Public Pages' };

const Mailing: EntityDef = {
  name: 'Mailing',
  table: 'crm_mailing',
  description: 'Mass emails sent from CiviMail',
  labelField: 'name',
  permissions: MAILING_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Mailing ID', required: true, readonly: true },
    { name: 'domain_id', type: 'Int', title: 'Domain ID', default: 1 },
    component('header_id', 'Header ID'),
    component('footer_id', 'Footer ID'),
    component('reply_id', 'Reply ID'),
    component('unsubscribe_id', 'Unsubscribe ID'),
    { name: 'resubscribe_id', type: 'Int', title: 'Mailing Resubscribe' },
    component('optout_id', 'Opt Out ID'),
    {
      name: 'name',
      type: 'String',
      title: 'Mailing Name',
      maxlength: 128,
      apiRequired: true,
      uniqueName: 'mailing_name',
    },
    { name: 'mailing_type', type: 'String', title: 'Mailing Type', maxlength: 32, options: MAILING_TYPES },
    { name: 'from_name', type: 'String', title: 'Mailing From Name', maxlength: 128 },
    { name: 'from_email', type: 'String', title: 'Mailing From Email', maxlength: 128 },
    { name: 'replyto_email', type: 'String', title: 'Replyto Email', maxlength: 128 },
    { name: 'subject', type: 'String', title: 'Subject', maxlength: 128, apiRequired: true },
    { name: 'body_text', type: 'Text', title: 'Body Text' },
    { name: 'body_html', type: 'Text', title: 'Body Html' },
    flag('url_tracking', 'Url Tracking'),
    flag('forward_replies', 'Forward Replies'),
    flag('auto_responder', 'Auto Responder'),
    flag('open_tracking', 'Track Mailing?'),
    flag('is_completed', 'Mailing Completed'),
    { name: 'msg_template_id', type: 'Int', title: 'Message Template ID' },
    flag('override_verp', 'Override Verp'),
    contact('created_id', 'Created By Contact ID'),
    { name: 'created_date', type: 'Timestamp', title: 'Mailing Created Date', default: { sql: 'now' } },
    {
      name: 'modified_date',
      type: 'Timestamp',
      title: 'Modified Date',
      readonly: true,
      default: { sql: 'now' },
      uniqueName: 'mailing_modified_date',
    },
    contact('scheduled_id', 'Scheduled By Contact ID'),
    { name: 'scheduled_date', type: 'Timestamp', title: 'Mailing Scheduled Date' },
    contact('approver_id', 'Approved By Contact ID'),
    { name: 'approval_date', type: 'Timestamp', title: 'Mailing Approved Date' },
    { name: 'approval_status_id', type: 'Int', title: 'Approval Status', optionGroup: 'mail_approval_status' },
    { name: 'approval_note', type: 'Text', title: 'Approval Note' },
    flag('is_archived', 'Is Mailing Archived?'),
    {
      name: 'visibility',
      type: 'String',
      title: 'Mailing Visibility',
      maxlength: 40,
      default: 'Public Pages',
      options: VISIBILITY,
    },
    { name: 'campaign_id', type: 'Int', title: 'Campaign ID' },
    flag('dedupe_email', 'No Duplicate emails?'),
    { name: 'sms_provider_id', type: 'Int', title: 'SMS Provider ID' },
    { name: 'hash', type: 'String', title: 'Mailing Hash', maxlength: 16, readonly: true },
    { name: 'location_type_id', type: 'Int', title: 'Location Type ID', fk: 'LocationType', onDelete: 'set null' },
    {
      name: 'email_selection_method',
      type: 'String',
      title: 'Email Selection Method',
      maxlength: 20,
      default: 'automatic',
      options: {
        automatic: 'Automatic',
        'location-only': 'Only send to email addresses assigned to the specified location',
        'location-prefer': 'Prefer email addresses assigned to the specified location',
        'location-exclude': 'Exclude email addresses assigned to the specified location',
      },
    },
    { name: 'language', type: 'String', title: 'Mailing Language', maxlength: 5 },
  ],
  indexes: [{ name: 'index_hash', fields: ['hash'] }],
};

export default Mailing;
