/** Contact's read-only values of its primary location records: the address, phone and email fields of Contact.get's default output. */
import type { FieldDef } from '../../entity-core';

const primary = { is_primary: true };

export const primaryLocationFields: FieldDef[] = [
  {
    name: 'address_id',
    type: 'Int',
    title: 'Address ID',
    related: { entity: 'Address', field: 'id', fk: 'contact_id', where: primary },
  },
  ...[
    'street_address',
    'supplemental_address_1',
    'supplemental_address_2',
    'supplemental_address_3',
    'city',
    'postal_code_suffix',
    'postal_code',
    'geo_code_1',
    'geo_code_2',
  ].map((f): FieldDef => ({
    name: f,
    type: f.startsWith('geo') ? 'Float' : 'String',
    title: f,
    related: { entity: 'Address', field: f, fk: 'contact_id', where: primary },
  })),
  // The primary address's place, as Contact.get returns it: ids, then the state's and country's names and
  // the country's world region (through the `address_primary` reference below).
  ...(['state_province_id', 'country_id'] as const).map((f): FieldDef => ({
    name: f,
    type: 'Int',
    title: f === 'country_id' ? 'Country ID' : 'State/Province ID',
    related: { entity: 'Address', field: f, fk: 'contact_id', where: primary },
  })),
  ...(
    [
      ['state_province_name', 'String', 'State/Province Name', 'address_primary.state_province_id.name'],
      ['state_province', 'String', 'State/Province', 'address_primary.state_province_id.abbreviation'],
      ['country', 'String', 'Country', 'address_primary.country_id.name'],
      ['worldregion_id', 'Int', 'World Region ID', 'address_primary.country_id.region_id'],
      ['world_region', 'String', 'World Region', 'address_primary.country_id.region_id.name'],
    ] as const
  ).map(([name, type, title, via]): FieldDef => ({ name, type, title, via })),
  {
    name: 'phone_id',
    type: 'Int',
    title: 'Phone ID',
    related: { entity: 'Phone', field: 'id', fk: 'contact_id', where: primary },
  },
  {
    name: 'phone_type_id',
    type: 'Int',
    title: 'Phone Type',
    related: { entity: 'Phone', field: 'phone_type_id', fk: 'contact_id', where: primary },
  },
  {
    name: 'phone',
    type: 'String',
    title: 'Phone',
    related: { entity: 'Phone', field: 'phone', fk: 'contact_id', where: primary },
  },
  {
    name: 'email_id',
    type: 'Int',
    title: 'Email ID',
    related: { entity: 'Email', field: 'id', fk: 'contact_id', where: primary },
  },
  {
    name: 'email',
    type: 'Email',
    title: 'Email',
    related: { entity: 'Email', field: 'email', fk: 'contact_id', where: primary },
  },
  {
    name: 'on_hold',
    type: 'Int',
    title: 'On Hold',
    related: { entity: 'Email', field: 'on_hold', fk: 'contact_id', where: primary },
  },
  // APIv4's references to the primary records: `email_primary.email`, `address_primary.city` in select, where
  // and orderBy (one LEFT JOIN on the primary row); APIv4 writes `email_primary.email` values to the primary row.
  ...(
    [
      ['email_primary', 'Email', 'Primary Email'],
      ['phone_primary', 'Phone', 'Primary Phone'],
      ['address_primary', 'Address', 'Primary Address'],
    ] as const
  ).map(([name, entity, title]): FieldDef => ({
    name,
    type: 'Int',
    title,
    fk: entity,
    readonly: true,
    related: { entity, field: 'id', fk: 'contact_id', where: primary },
  })),
];
