/** Address: a row owned by a contact. */
import type { EntityDef, FieldDef } from '../../entity-core';
import { contactId, flags, locationTypeId, perms } from './location-fields';

const Address: EntityDef = {
  name: 'Address',
  table: 'crm_address',
  ownerField: 'contact_id',
  labelField: 'street_address',
  fields: [
    { name: 'id', type: 'Int', title: 'Address ID', required: true, uniqueName: 'address_id' },
    contactId,
    { ...locationTypeId, apiRequired: true },
    ...flags,
    ...[
      'street_address',
      'street_number_suffix',
      'street_number_predirectional',
      'street_name',
      'street_type',
      'street_number_postdirectional',
      'street_unit',
      'supplemental_address_1',
      'supplemental_address_2',
      'supplemental_address_3',
      'city',
      'postal_code_suffix',
      'postal_code',
      'timezone',
    ].map((n): FieldDef => ({
      name: n,
      type: 'String',
      title: n.replace(/_/g, ' '),
      maxlength: n === 'street_address' ? 96 : 64,
    })),
    { name: 'street_number', type: 'Int', title: 'Street Number' },
    // Ids, ISO codes or names on APIv3 writes; a state named by code or name is looked up in the address's country.
    {
      name: 'county_id',
      type: 'Int',
      title: 'County ID',
      fk: 'County',
      onDelete: 'set null',
      pseudoEntity: { entity: 'County', labelField: 'name', abbrField: 'abbreviation' },
    },
    {
      name: 'state_province_id',
      type: 'Int',
      title: 'State/Province ID',
      fk: 'StateProvince',
      onDelete: 'set null',
      pseudoEntity: { entity: 'StateProvince', labelField: 'name', abbrField: 'abbreviation' },
    },
    {
      name: 'country_id',
      type: 'Int',
      title: 'Country ID',
      fk: 'Country',
      onDelete: 'set null',
      pseudoEntity: { entity: 'Country', labelField: 'name', abbrField: 'iso_code' },
    },
    { name: 'geo_code_1', type: 'Float', title: 'Latitude' },
    { name: 'geo_code_2', type: 'Float', title: 'Longitude' },
    {
      name: 'manual_geo_code',
      type: 'Boolean',
      title: 'Is Manually Geocoded',
      apiDefault: 0,
      required: true,
      default: false,
    },
    { name: 'name', type: 'String', title: 'Address Name', maxlength: 255, uniqueName: 'address_name' },
    { name: 'master_id', type: 'Int', title: 'Master Address ID', fk: 'Address', onDelete: 'set null' },
  ],
  indexes: [{ name: 'contact_id', fields: ['contact_id', 'is_primary'] }],
  permissions: perms,
};

export default Address;
