/** OpenID: an OpenID identifier of a contact, at a location (4.7.0). */
import type { EntityDef } from '../../entity-core';

const OpenID: EntityDef = {
  name: 'OpenID',
  table: 'crm_openid',
  description: 'OpenID information for a specific location',
  labelField: 'openid',
  // Row access follows the contact, as for Email and Phone.
  ownerField: 'contact_id',
  permissions: {
    get: 'public',
    create: 'public',
    update: 'public',
    delete: 'public',
    default: 'public',
    meta: 'access CRM',
  },
  fields: [
    { name: 'id', type: 'Int', title: 'Open ID identifier', required: true, readonly: true },
    { name: 'contact_id', type: 'Int', title: 'Contact ID', fk: 'Contact', onDelete: 'cascade', apiRequired: true },
    {
      name: 'location_type_id',
      type: 'Int',
      title: 'OpenID Location Type',
      fk: 'LocationType',
      pseudoEntity: { entity: 'LocationType', labelField: 'display_name', nameField: 'name' },
    },
    { name: 'openid', type: 'Url', title: 'OpenID', maxlength: 255, apiRequired: true },
    {
      name: 'allowed_to_login',
      type: 'Boolean',
      title: 'Allowed to login?',
      required: true,
      default: false,
      apiDefault: 0,
    },
    { name: 'is_primary', type: 'Boolean', title: 'Is Primary', required: true, default: false, apiDefault: 0 },
  ],
  indexes: [
    { name: 'index_location_type', fields: ['location_type_id'] },
    { name: 'UI_openid', fields: ['openid'], unique: true },
  ],
};

export default OpenID;
