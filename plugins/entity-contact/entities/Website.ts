/** Website: a row owned by a contact. */
import type { EntityDef } from '../../entity-core';
import { contactId, perms } from './location-fields';

const Website: EntityDef = {
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
  indexes: [{ name: 'contact_id', fields: ['contact_id'] }],
  permissions: perms,
};

export default Website;
