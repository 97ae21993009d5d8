/** Country: every ISO 3166-1 country, with its alpha-2 code as `iso_code`. */
import type { EntityDef } from '../../entity-core';
import { GEOGRAPHY_PERMISSIONS } from './permissions';

const Country: EntityDef = {
  name: 'Country',
  table: 'crm_country',
  description: 'Countries of the world',
  labelField: 'name',
  permissions: GEOGRAPHY_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Country ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Country', maxlength: 64, apiRequired: true, uniqueName: 'country' },
    { name: 'iso_code', type: 'String', title: 'Country ISO Code', maxlength: 2 },
    { name: 'country_code', type: 'String', title: 'Country Phone Prefix', maxlength: 4 },
    { name: 'address_format_id', type: 'Int', title: 'Address Format ID' },
    { name: 'idd_prefix', type: 'String', title: 'Outgoing Phone Prefix', maxlength: 4 },
    { name: 'ndd_prefix', type: 'String', title: 'Area Code', maxlength: 4 },
    {
      name: 'region_id',
      type: 'Int',
      title: 'World Region ID',
      fk: 'WorldRegion',
      onDelete: 'set null',
      pseudoEntity: { entity: 'WorldRegion', labelField: 'name' },
    },
    {
      name: 'is_province_abbreviated',
      type: 'Boolean',
      title: 'Abbreviate Province?',
      required: true,
      default: false,
    },
    { name: 'is_active', type: 'Boolean', title: 'Country Is Active', required: true, default: true, apiDefault: 1 },
  ],
  indexes: [
    { name: 'UI_name_iso_code', fields: ['name', 'iso_code'], unique: true },
    { name: 'iso_code', fields: ['iso_code'] },
  ],
};

export default Country;
