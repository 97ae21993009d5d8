/** EntityFile: attaches a file to a record (`entity_table` + `entity_id`); deleted with the record. */
import type { EntityDef } from '../../entity-core';
import { ATTACHABLE, FILE_PERMISSIONS } from './permissions';

const EntityFile: EntityDef = {
  name: 'EntityFile',
  table: 'crm_entity_file',
  description: 'Attaches (joins) uploaded files to records: activities, mailings, contacts…',
  permissions: FILE_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Entity File ID', required: true, readonly: true },
    {
      name: 'entity_table',
      type: 'String',
      title: 'Entity Table',
      maxlength: 64,
      required: true,
      apiRequired: true,
      options: Object.fromEntries(Object.entries(ATTACHABLE).map(([entity, table]) => [table, entity])),
    },
    {
      name: 'entity_id',
      type: 'Int',
      title: 'Entity ID',
      required: true,
      apiRequired: true,
      dynamicFk: { tableField: 'entity_table', entities: Object.keys(ATTACHABLE), onDelete: 'cascade' },
    },
    {
      name: 'file_id',
      type: 'Int',
      title: 'File ID',
      required: true,
      apiRequired: true,
      fk: 'File',
      onDelete: 'cascade',
    },
  ],
  indexes: [
    { name: 'UI_entity_id_entity_table_file_id', fields: ['entity_id', 'entity_table', 'file_id'], unique: true },
  ],
};

export default EntityFile;
