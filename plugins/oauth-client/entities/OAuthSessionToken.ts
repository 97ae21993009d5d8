/** OAuthSessionToken (OAuth, APIv4 only). */
import type { EntityDef } from '../../entity-core';
import { tokenFields } from './token-fields';

const OAuthSessionToken: EntityDef = {
  name: 'OAuthSessionToken',
  table: 'crm_oauth_session_token',
  apis: [4],
  labelField: 'tag',
  description: "A token tied to the caller's session: removed when the session ends",
  permissions: { meta: 'access CRM', default: 'administer CRM' },
  fields: [
    ...tokenFields(['administer CRM']),
    {
      name: 'session_hash',
      type: 'String',
      title: 'Session',
      maxlength: 64,
      required: true,
      readonly: true,
      secret: ['administer CRM'],
    },
  ],
  indexes: [
    { name: 'tag_index', fields: ['tag'] },
    { name: 'session_hash_index', fields: ['session_hash'] },
  ],
};

export default OAuthSessionToken;
