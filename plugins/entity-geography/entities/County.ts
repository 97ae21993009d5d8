/** County: a subdivision of a state or province (none are seeded; deployers add the ones they use). */
import type { EntityDef } from '../../entity-core';
import { GEOGRAPHY_PERMISSIONS } from './permissions';

const County: EntityDef = {
  name: 'County',
  table: 'crm_county',
  description: 'Counties, within a state or province',
  labelField: 'name',
  permissions: GEOGRAPHY_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'County ID', required: true, readonly: true },
    {
      name: 'name',
      type: 'String',
      title: 'County',
      maxlength: 64,
      required: true,
      apiRequired: true,
      uniqueName: 'county',
    },
    { name: 'abbreviation', type: 'String', title: 'County Abbreviation', maxlength: 4 },
    {
      name: 'state_province_id',
      type: 'Int',
      title: 'State ID',
      required: true,
      apiRequired: true,
      fk: 'StateProvince',
      onDelete: 'cascade',
      pseudoEntity: { entity: 'StateProvince', labelField: 'name', abbrField: 'abbreviation' },
    },
    { name: 'is_active', type: 'Boolean', title: 'County Is Active', required: true, default: true, apiDefault: 1 },
  ],
  indexes: [{ name: 'state_name', fields: ['state_province_id', 'name'], unique: true }],
};

export default County;
