/** Phone: a row owned by a contact. */
import type { EntityDef } from '../../entity-core';
import { contactId, flags, locationTypeId, perms } from './location-fields';

const Phone: EntityDef = {
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
  indexes: [
    { name: 'contact_id', fields: ['contact_id', 'is_primary'] },
    { name: 'phone_numeric', fields: ['phone_numeric'] },
  ],
  permissions: perms,
};

export default Phone;
