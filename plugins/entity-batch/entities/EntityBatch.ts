/** EntityBatch: a record (by `entity_table` + `entity_id`) in a batch, 4.7.0 API. */
import type { EntityDef } from '../../entity-core';

const EntityBatch: EntityDef = {
  name: 'EntityBatch',
  table: 'crm_entity_batch',
  description: 'Which records are in which batch',
  permissions: { get: 'access CRM', meta: 'access CRM', default: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'EntityBatch ID', required: true, readonly: true },
    {
      name: 'entity_table',
      type: 'String',
      title: 'EntityBatch Table',
      maxlength: 64,
      required: true,
      apiRequired: true,
      description: 'physical tablename for entity being joined to file, e.g. civicrm_contact',
    },
    {
      name: 'entity_id',
      type: 'Int',
      title: 'Entity ID',
      required: true,
      apiRequired: true,
      dynamicFk: { tableField: 'entity_table', onDelete: 'cascade' },
    },
    {
      name: 'batch_id',
      type: 'Int',
      title: 'Batch ID',
      required: true,
      apiRequired: true,
      fk: 'Batch',
      onDelete: 'cascade',
    },
  ],
  indexes: [
    { name: 'index_entity', fields: ['entity_table', 'entity_id'] },
    { name: 'UI_batch_entity', fields: ['batch_id', 'entity_id', 'entity_table'], unique: true },
  ],
};

export default EntityBatch;
