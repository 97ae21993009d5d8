/** Case: a set of activities and roles around one or more client contacts, of a case type (schema/Case). */
import type { EntityDef, FieldDef } from '../../entity-core';
import { CASE_PERMISSIONS } from './permissions';

const Case: EntityDef & { fields: FieldDef[] } = {
  name: 'Case',
  table: 'crm_case',
  description: 'A case: activities and roles around its client contacts, following its case type',
  labelField: 'subject',
  permissions: CASE_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Case ID', required: true, readonly: true, uniqueName: 'case_id' },
    {
      name: 'case_type_id',
      type: 'Int',
      title: 'Case Type',
      required: true,
      fk: 'CaseType',
      onDelete: 'restrict',
      pseudoEntity: { entity: 'CaseType', labelField: 'title', nameField: 'name' },
    },
    { name: 'subject', type: 'String', title: 'Case Subject', maxlength: 128, uniqueName: 'case_subject' },
    { name: 'start_date', type: 'Date', title: 'Case Start Date', uniqueName: 'case_start_date' },
    { name: 'end_date', type: 'Date', title: 'Case End Date', uniqueName: 'case_end_date' },
    { name: 'details', type: 'Text', title: 'Details', uniqueName: 'case_details' },
    {
      name: 'status_id',
      type: 'Int',
      title: 'Case Status',
      required: true,
      optionGroup: 'case_status',
      apiDefault: 1,
      uniqueName: 'case_status_id',
      aliases: ['case_status'],
    },
    {
      name: 'is_deleted',
      type: 'Boolean',
      title: 'Case is in the Trash',
      required: true,
      default: false,
      apiDefault: 0,
      uniqueName: 'case_deleted',
    },
    {
      name: 'created_date',
      type: 'Timestamp',
      title: 'Created Date',
      readonly: true,
      default: { sql: 'now' },
      uniqueName: 'case_created_date',
    },
    {
      name: 'modified_date',
      type: 'Timestamp',
      title: 'Modified Date',
      readonly: true,
      default: { sql: 'now' },
      uniqueName: 'case_modified_date',
    },
    // The clients, kept in CaseContact (one or many; APIv3 also takes `client_id`).
    {
      name: 'contact_id',
      type: 'Int',
      title: 'Case Client',
      fk: 'Contact',
      aliases: ['client_id'],
      collection: { entity: 'CaseContact', fk: 'case_id', field: 'contact_id' },
    },
    // The case's activities, kept in CaseActivity (returned by APIv3 get only through `return`, or by id).
    {
      name: 'activities',
      type: 'Int',
      title: 'Case Activities',
      fk: 'Activity',
      readonly: true,
      collection: { entity: 'CaseActivity', fk: 'case_id', field: 'activity_id' },
    },
  ],
  indexes: [
    { name: 'index_case_type_id', fields: ['case_type_id'] },
    { name: 'index_is_deleted', fields: ['is_deleted'] },
  ],
};

// APIv3 get returns the clients with the record's own fields (api/v3/Case.php); activities only when asked.
Case.defaultReturn = [...Case.fields.filter((field) => !field.collection).map((field) => field.name), 'contact_id'];

export default Case;
