/** Fields and permissions shared by Email, Phone, Address and Website: rows owned by a contact (§4.5, §7). */
import type { FieldDef, PermissionMap } from '../../entity-core';

export const perms: PermissionMap = {
  get: 'public',
  create: 'public',
  update: 'public',
  delete: 'public',
  default: 'public',
  meta: 'access CRM',
};
/** The owning contact: deleting the contact deletes the row. */
export const contactId: FieldDef = {
  name: 'contact_id',
  type: 'Int',
  title: 'Contact ID',
  fk: 'Contact',
  onDelete: 'cascade',
  apiRequired: true,
};
export const locationTypeId: FieldDef = {
  name: 'location_type_id',
  type: 'Int',
  title: 'Location Type',
  fk: 'LocationType',
  pseudoEntity: { entity: 'LocationType', labelField: 'display_name', nameField: 'name' },
};
export const flags: FieldDef[] = [
  { name: 'is_primary', type: 'Boolean', title: 'Is Primary', apiDefault: 0, required: true, default: false },
  { name: 'is_billing', type: 'Boolean', title: 'Is Billing', apiDefault: 0, required: true, default: false },
];
