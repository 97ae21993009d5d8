/** Email: a row owned by a contact. */
import type { EntityDef } from '../../entity-core';
import { contactId, flags, locationTypeId, perms } from './location-fields';

const Email: EntityDef = {
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
      required: true,
      default: 0,
      options: { 0: 'No', 1: 'On Hold Bounce', 2: 'On Hold Opt Out' },
    },
    {
      name: 'is_bulkmail',
      type: 'Boolean',
      title: 'Use for Bulk Mail',
      apiDefault: 0,
      required: true,
      default: false,
    },
    { name: 'hold_date', type: 'Timestamp', title: 'Hold Date' },
    { name: 'reset_date', type: 'Timestamp', title: 'Reset Date' },
    { name: 'signature_text', type: 'Text', title: 'Signature Text' },
    { name: 'signature_html', type: 'Text', title: 'Signature Html' },
  ],
  indexes: [
    { name: 'email', fields: ['email'] },
    // A contact's primary email (Contact.get joins it on every row).
    { name: 'contact_id', fields: ['contact_id', 'is_primary'] },
    // Prefix search (`lower(email) LIKE lower(?)`), whatever the collation.
    { name: 'lower_email', fields: ['lower(email)'], opclass: 'text_pattern_ops' },
  ],
  permissions: perms,
};

export default Email;
