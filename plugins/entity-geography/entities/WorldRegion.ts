/** WorldRegion: the reference's broad regions countries belong to. */
import type { EntityDef } from '../../entity-core';
import { GEOGRAPHY_PERMISSIONS } from './permissions';

const WorldRegion: EntityDef = {
  name: 'WorldRegion',
  table: 'crm_worldregion',
  description: 'World regions',
  labelField: 'name',
  permissions: GEOGRAPHY_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'World Region ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'World Region', maxlength: 128, uniqueName: 'world_region' },
  ],
};

export default WorldRegion;
