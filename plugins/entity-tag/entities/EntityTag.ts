/** EntityTag: a tag on a record, named by `entity_table` + `entity_id` (a contact unless said otherwise). */
import type { EntityDef } from '../../entity-core';
import { TAG_USED_FOR } from './used-for';

const EntityTag: EntityDef = {
  name: 'EntityTag',
  table: 'crm_entity_tag',
  description: 'Tags on contacts and other records',
  // §6.2: no API-level permission; row access follows the tagged record (register.ts).
  permissions: { get: 'public', create: 'public', update: 'public', delete: 'public', default: 'public' },
  fields: [
    { name: 'id', type: 'Int', title: 'Entity Tag ID', required: true, readonly: true },
    {
      name: 'entity_table',
      type: 'String',
      title: 'Entity Table',
      maxlength: 64,
      options: TAG_USED_FOR,
      apiDefault: 'civicrm_contact',
      v3GetDefault: 'civicrm_contact',
    },
    {
      name: 'entity_id',
      type: 'Int',
      title: 'Entity ID',
      required: true,
      apiRequired: true,
      aliases: ['contact_id'],
      dynamicFk: { tableField: 'entity_table', onDelete: 'cascade' },
    },
    {
      name: 'tag_id',
      type: 'Int',
      title: 'Tag ID',
      required: true,
      apiRequired: true,
      fk: 'Tag',
      onDelete: 'cascade',
      pseudoEntity: { entity: 'Tag', labelField: 'label', nameField: 'name' },
    },
  ],
  indexes: [
    { name: 'UI_entity_id_entity_table_tag_id', fields: ['entity_id', 'entity_table', 'tag_id'], unique: true },
  ],
};

export default EntityTag;
