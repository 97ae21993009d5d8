/** UFJoin: where a profile is used: a module (`User Registration`, `Profile`, `CiviContribute`…), optionally a record. */
import type { EntityDef } from '../../entity-core';
import { PROFILE_ADMIN } from './permissions';

const UFJoin: EntityDef = {
  name: 'UFJoin',
  table: 'crm_uf_join',
  description: 'Where profiles are used: by a module, and optionally for one record (a contribution page, an event)',
  permissions: PROFILE_ADMIN,
  fields: [
    { name: 'id', type: 'Int', title: 'UF Join ID', required: true, readonly: true },
    {
      name: 'is_active',
      type: 'Boolean',
      title: 'Profile Use is active',
      required: true,
      default: true,
      apiDefault: 1,
    },
    {
      name: 'module',
      type: 'String',
      title: 'Profile Module',
      maxlength: 64,
      required: true,
      apiRequired: true,
      description: 'The module using the profile: User Registration, User Account, Profile, CiviContribute, CiviEvent…',
    },
    { name: 'entity_table', type: 'String', title: 'Profile Entity Table', maxlength: 64 },
    {
      name: 'entity_id',
      type: 'Int',
      title: 'Profile Entity ID',
      dynamicFk: { tableField: 'entity_table', onDelete: 'cascade' },
    },
    { name: 'weight', type: 'Int', title: 'Order', required: true, default: 1, apiRequired: true },
    {
      name: 'uf_group_id',
      type: 'Int',
      title: 'Profile ID',
      required: true,
      apiRequired: true,
      fk: 'UFGroup',
      onDelete: 'cascade',
      pseudoEntity: { entity: 'UFGroup', labelField: 'title', nameField: 'name' },
    },
    { name: 'module_data', type: 'Json', title: 'Profile Use Data' },
  ],
  indexes: [{ name: 'index_entity', fields: ['entity_table', 'entity_id'] }],
};

export default UFJoin;
