/** Note: a text attached to a record (`entity_table` + `entity_id`): a contact by default, or another note. */
import type { EntityDef } from '../../entity-core';

/** What a note may be attached to (the reference's `note_used_for`, plus notes on notes); entities not installed are refused. */
export const NOTE_USED_FOR = ['Contact', 'Note', 'Relationship', 'Participant', 'Contribution'];

const Note: EntityDef = {
  name: 'Note',
  table: 'crm_note',
  description: 'Notes can be linked to any record: a contact by default, or another note (a comment)',
  labelField: 'subject',
  // §6.2: no API-level permission; row access follows the noted record and the privacy (register.ts).
  permissions: { get: 'public', create: 'public', update: 'public', delete: 'public', default: 'public' },
  fields: [
    { name: 'id', type: 'Int', title: 'Note ID', required: true, readonly: true },
    {
      name: 'entity_table',
      type: 'String',
      title: 'Note Entity',
      maxlength: 64,
      required: true,
      apiDefault: 'civicrm_contact',
      v3GetDefault: 'civicrm_contact',
      description: 'Name of table where item being referenced is stored',
    },
    {
      name: 'entity_id',
      type: 'Int',
      title: 'Note Entity ID',
      required: true,
      apiRequired: true,
      dynamicFk: { tableField: 'entity_table', entities: NOTE_USED_FOR, onDelete: 'cascade' },
    },
    { name: 'note', type: 'Text', title: 'Note', apiRequired: true },
    { name: 'contact_id', type: 'Int', title: 'Created By Contact ID', fk: 'Contact', onDelete: 'set null' },
    { name: 'note_date', type: 'Timestamp', title: 'Note Date', default: { sql: 'now' } },
    {
      name: 'created_date',
      type: 'Timestamp',
      title: 'Created Date',
      required: true,
      readonly: true,
      default: { sql: 'now' },
    },
    { name: 'modified_date', type: 'Timestamp', title: 'Note Modified Date', readonly: true, default: { sql: 'now' } },
    { name: 'subject', type: 'String', title: 'Subject', maxlength: 255 },
    {
      name: 'privacy',
      type: 'String',
      title: 'Privacy',
      maxlength: 255,
      required: true,
      default: '0',
      apiDefault: '0',
      options: { 0: 'None', 1: 'Author Only' },
    },
  ],
  indexes: [{ name: 'index_entity', fields: ['entity_table', 'entity_id'] }],
};

export default Note;
