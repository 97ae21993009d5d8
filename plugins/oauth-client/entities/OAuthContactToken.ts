/** OAuthContactToken (OAuth, APIv4 only). */
import type { EntityDef } from '../../entity-core';
import { P } from '../permissions';
import { tokenFields } from './token-fields';

const OAuthContactToken: EntityDef = {
  name: 'OAuthContactToken',
  table: 'crm_oauth_contact_token',
  apis: [4],
  labelField: 'tag',
  ownerField: 'contact_id',
  description: 'A token held on behalf of a contact; row rules in access.ts',
  permissions: { meta: 'access CRM', default: { anyOf: [P.MY_CONTACT_TOKENS, P.ALL_CONTACT_TOKENS] } },
  fields: [
    ...tokenFields([P.MY_CONTACT_TOKENS, P.ALL_CONTACT_TOKENS]),
    { name: 'contact_id', type: 'Int', title: 'Contact', fk: 'Contact', onDelete: 'cascade' },
  ],
  indexes: [
    { name: 'tag_index', fields: ['tag'] },
    { name: 'contact_id_index', fields: ['contact_id'] },
  ],
};

export default OAuthContactToken;
