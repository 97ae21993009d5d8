/** StateProvince (4.7.15): every ISO 3166-2 subdivision; `abbreviation` is the code after the country's hyphen. */
import type { EntityDef } from '../../entity-core';
import { GEOGRAPHY_PERMISSIONS } from './permissions';

const StateProvince: EntityDef = {
  name: 'StateProvince',
  table: 'crm_state_province',
  description: 'States, provinces and other subdivisions of countries',
  labelField: 'name',
  permissions: GEOGRAPHY_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'State ID', required: true, readonly: true },
    {
      name: 'name',
      type: 'String',
      title: 'State',
      maxlength: 64,
      required: true,
      apiRequired: true,
      uniqueName: 'state_province',
    },
    {
      name: 'abbreviation',
      type: 'String',
      title: 'State Abbreviation',
      maxlength: 4,
      required: true,
      apiRequired: true,
    },
    {
      name: 'country_id',
      type: 'Int',
      title: 'Country ID',
      required: true,
      apiRequired: true,
      fk: 'Country',
      onDelete: 'cascade',
      pseudoEntity: { entity: 'Country', labelField: 'name', abbrField: 'iso_code' },
    },
    {
      name: 'is_active',
      type: 'Boolean',
      title: 'StateProvince Is Active',
      required: true,
      default: true,
      apiDefault: 1,
    },
  ],
  indexes: [
    { name: 'country_abbreviation', fields: ['country_id', 'abbreviation'] },
    { name: 'country_name', fields: ['country_id', 'name'] },
  ],
};

export default StateProvince;
