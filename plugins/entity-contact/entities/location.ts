/** Email, Phone, Address, Website: rows owned by a contact (§4.5, §7). */
import type { EntityDef, FieldDef, PermissionMap } from '../../entity-core';

const perms: PermissionMap = {
  get: 'public',
  create: 'public',
  update: 'public',
  delete: 'public',
  default: 'public',
  meta: 'access CRM',
};
const contactId: FieldDef = { name: 'contact_id', type: 'Int', title: 'Contact ID', fk: 'Contact', apiRequired: true };
const locationTypeId: FieldDef = {
  name: 'location_type_id',
  type: 'Int',
  title: 'Location Type',
  fk: 'LocationType',
  pseudoEntity: { entity: 'LocationType', labelField: 'display_name', nameField: 'name' },
};
const flags: FieldDef[] = [
  { name: 'is_primary', type: 'Boolean', title: 'Is Primary', apiDefault: 0 },
  { name: 'is_billing', type: 'Boolean', title: 'Is Billing', apiDefault: 0 },
];

export const Email: EntityDef = {
  name: 'Email',
  table: 'crm_email',
  ownerField: 'contact_id',
  labelField: 'email',
  fields: [
    { name: 'id', type: 'Int', title: 'Email ID', required: true },
    contactId,
    locationTypeId,
    { name: 'email', type: 'Email', title: 'Email', maxlength: 254, apiRequired: true },
    ...flags,
    {
      name: 'on_hold',
      type: 'Int',
      title: 'On Hold',
      apiDefault: 0,
      options: { 0: 'No', 1: 'On Hold Bounce', 2: 'On Hold Opt Out' },
    },
    { name: 'is_bulkmail', type: 'Boolean', title: 'Use for Bulk Mail', apiDefault: 0 },
    { name: 'hold_date', type: 'Timestamp', title: 'Hold Date' },
    { name: 'reset_date', type: 'Timestamp', title: 'Reset Date' },
    { name: 'signature_text', type: 'Text', title: 'Signature Text' },
    { name: 'signature_html', type: 'Text', title: 'Signature Html' },
  ],
  indexes: [
    { name: 'UI_email', fields: ['email'] },
    { name: 'FK_contact_id', fields: ['contact_id'] },
  ],
  permissions: perms,
};

export const Phone: EntityDef = {
  name: 'Phone',
  table: 'crm_phone',
  ownerField: 'contact_id',
  labelField: 'phone',
  fields: [
    { name: 'id', type: 'Int', title: 'Phone ID', required: true },
    contactId,
    locationTypeId,
    ...flags,
    { name: 'mobile_provider_id', type: 'Int', title: 'Mobile Provider', optionGroup: 'mobile_provider' },
    { name: 'phone', type: 'String', title: 'Phone', maxlength: 32, apiRequired: true },
    { name: 'phone_ext', type: 'String', title: 'Phone Extension', maxlength: 16 },
    { name: 'phone_numeric', type: 'String', title: 'Phone Numeric', maxlength: 32, readonly: true },
    { name: 'phone_type_id', type: 'Int', title: 'Phone Type', optionGroup: 'phone_type' },
  ],
  indexes: [{ name: 'FK_contact_id', fields: ['contact_id'] }],
  permissions: perms,
};

export const Address: EntityDef = {
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
    { name: 'geo_code_1', type: 'Float', title: 'Latitude' },
    { name: 'geo_code_2', type: 'Float', title: 'Longitude' },
    { name: 'manual_geo_code', type: 'Boolean', title: 'Is Manually Geocoded', apiDefault: 0 },
    { name: 'name', type: 'String', title: 'Address Name', maxlength: 255, uniqueName: 'address_name' },
    { name: 'master_id', type: 'Int', title: 'Master Address ID', fk: 'Address' },
  ],
  indexes: [{ name: 'FK_contact_id', fields: ['contact_id'] }],
  permissions: perms,
};

export const Website: EntityDef = {
  name: 'Website',
  table: 'crm_website',
  ownerField: 'contact_id',
  labelField: 'url',
  fields: [
    { name: 'id', type: 'Int', title: 'Website ID', required: true },
    contactId,
    { name: 'url', type: 'Url', title: 'Website', maxlength: 2048 },
    { name: 'website_type_id', type: 'Int', title: 'Website Type', optionGroup: 'website_type' },
  ],
  indexes: [{ name: 'FK_contact_id', fields: ['contact_id'] }],
  permissions: perms,
};
