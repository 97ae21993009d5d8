/** Activity: past or future actions concerning one or more contacts (§7; fields from the reference schema). */
import { flagField, type EntityDef, type FieldDef } from '../../entity-core';
import { ACTIVITY_PERMISSIONS } from './permissions';

/** The activity's contacts of one part, kept in ActivityContact (4.4.0): 1 assignee, 2 source, 3 target. */
const party = (name: string, title: string, recordType: number, single = false): FieldDef => ({
  name,
  type: 'Int',
  title,
  fk: 'Contact',
  collection: {
    entity: 'ActivityContact',
    fk: 'activity_id',
    field: 'contact_id',
    where: { record_type_id: recordType },
    single,
  },
});

export const PARTY_FIELDS = ['source_contact_id', 'target_contact_id', 'assignee_contact_id'];

const Activity: EntityDef & { fields: FieldDef[] } = {
  name: 'Activity',
  table: 'crm_activity',
  description: 'Past or future actions concerning one or more contacts',
  labelField: 'subject',
  permissions: ACTIVITY_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Activity ID', required: true, readonly: true, uniqueName: 'activity_id' },
    { name: 'source_record_id', type: 'Int', title: 'Source Record', readonly: true },
    {
      name: 'activity_type_id',
      type: 'Int',
      title: 'Activity Type ID',
      required: true,
      optionGroup: 'activity_type',
      default: 1,
    },
    { name: 'subject', type: 'String', title: 'Subject', maxlength: 255, uniqueName: 'activity_subject' },
    {
      name: 'activity_date_time',
      type: 'Timestamp',
      title: 'Activity Date',
      default: { sql: 'now' },
      apiDefault: 'now',
    },
    { name: 'duration', type: 'Int', title: 'Duration', uniqueName: 'activity_duration' },
    { name: 'location', type: 'String', title: 'Location', maxlength: 2048, uniqueName: 'activity_location' },
    { name: 'phone_id', type: 'Int', title: 'Phone ID (called)', fk: 'Phone', onDelete: 'set null' },
    { name: 'phone_number', type: 'String', title: 'Phone (called) Number', maxlength: 64 },
    { name: 'details', type: 'Text', title: 'Details', uniqueName: 'activity_details' },
    {
      name: 'status_id',
      type: 'Int',
      title: 'Activity Status',
      optionGroup: 'activity_status',
      uniqueName: 'activity_status_id',
      aliases: ['activity_status'],
    },
    { name: 'priority_id', type: 'Int', title: 'Priority', optionGroup: 'priority' },
    { name: 'parent_id', type: 'Int', title: 'Parent Activity ID', fk: 'Activity', onDelete: 'set null' },
    flagField('is_test', 'Test', false, { uniqueName: 'activity_is_test' }),
    {
      name: 'medium_id',
      type: 'Int',
      title: 'Activity Medium',
      optionGroup: 'encounter_medium',
      uniqueName: 'activity_medium_id',
    },
    flagField('is_auto', 'Auto', false),
    { name: 'relationship_id', type: 'Int', title: 'Relationship ID' },
    flagField('is_current_revision', 'Is current (unused)', true),
    { name: 'original_id', type: 'Int', title: 'Original ID (unused)', fk: 'Activity', onDelete: 'set null' },
    { name: 'result', type: 'String', title: 'Result', maxlength: 255, uniqueName: 'activity_result' },
    flagField('is_deleted', 'Activity is in the Trash', false, { uniqueName: 'activity_is_deleted' }),
    { name: 'campaign_id', type: 'Int', title: 'Campaign ID', uniqueName: 'activity_campaign_id' },
    {
      name: 'engagement_level',
      type: 'Int',
      title: 'Engagement Index',
      optionGroup: 'engagement_index',
      uniqueName: 'activity_engagement_level',
    },
    { name: 'weight', type: 'Int', title: 'Order' },
    flagField('is_star', 'Is Starred', false),
    {
      name: 'created_date',
      type: 'Timestamp',
      title: 'Created Date',
      readonly: true,
      default: { sql: 'now' },
      uniqueName: 'activity_created_date',
    },
    {
      name: 'modified_date',
      type: 'Timestamp',
      title: 'Modified Date',
      readonly: true,
      default: { sql: 'now' },
      uniqueName: 'activity_modified_date',
    },
    party('source_contact_id', 'Activity Source Contact', 2, true),
    party('target_contact_id', 'Activity Targets', 3),
    party('assignee_contact_id', 'Activity Assignees', 1),
  ],
  indexes: [
    { name: 'UI_source_record_id', fields: ['source_record_id'] },
    { name: 'UI_activity_type_id', fields: ['activity_type_id'] },
    { name: 'index_activity_date_time', fields: ['activity_date_time'] },
    { name: 'index_status_id', fields: ['status_id'] },
    { name: 'index_is_deleted', fields: ['is_deleted'] },
  ],
};

// APIv3's get returns the source contact with the record's own fields (api/v3/Activity.php); the targets and
// assignees only when asked for through `return`.
Activity.defaultReturn = [
  ...Activity.fields.filter((field) => !field.collection).map((field) => field.name),
  'source_contact_id',
];

export default Activity;
