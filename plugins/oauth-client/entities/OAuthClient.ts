/** OAuthClient (OAuth, APIv4 only). */
import type { EntityDef } from '../../entity-core';
import { P } from '../permissions';
import { ts } from './token-fields';

const OAuthClient: EntityDef = {
  name: 'OAuthClient',
  table: 'crm_oauth_client',
  apis: [4],
  labelField: 'guid',
  description: 'A registered OAuth client (a client id and secret at one provider)',
  permissions: {
    meta: 'access CRM',
    get: { anyOf: [P.CLIENT, P.MY_CONTACT_TOKENS, P.ALL_CONTACT_TOKENS] },
    default: P.CLIENT,
  },
  fields: [
    { name: 'id', type: 'Int', title: 'Client ID', required: true, readonly: true },
    {
      name: 'provider',
      type: 'String',
      title: 'Provider',
      maxlength: 128,
      required: true,
      apiRequired: true,
      description: 'Name of an OAuthProvider',
    },
    {
      name: 'guid',
      type: 'String',
      title: 'Client ID at the provider',
      maxlength: 128,
      required: true,
      apiRequired: true,
    },
    { name: 'tenant', type: 'String', title: 'Tenant', maxlength: 128, secret: [P.CLIENT] },
    { name: 'secret', type: 'Text', title: 'Client secret', secret: [P.CLIENT], encrypted: true },
    {
      name: 'options',
      type: 'Json',
      title: 'Options (JSON object merged over the provider options)',
      secret: [P.CLIENT],
    },
    { name: 'is_active', type: 'Boolean', title: 'Enabled', apiDefault: 1, required: true, default: true },
    ts('created_date', 'Created'),
    ts('modified_date', 'Modified'),
  ],
  indexes: [
    { name: 'provider_index', fields: ['provider'] },
    { name: 'guid_index', fields: ['guid'] },
  ],
};

export default OAuthClient;
