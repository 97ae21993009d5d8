/** OAuthSysToken (OAuth, APIv4 only). */
import type { EntityDef } from '../../entity-core';
import { P } from '../permissions';
import { tokenFields } from './token-fields';

const OAuthSysToken: EntityDef = {
  name: 'OAuthSysToken',
  table: 'crm_oauth_systoken',
  apis: [4],
  labelField: 'tag',
  description: 'A token held by the system (mail accounts, integrations)',
  permissions: {
    meta: 'access CRM',
    create: P.SECRETS,
    update: P.SECRETS,
    save: P.SECRETS,
    replace: P.SECRETS,
    default: P.CLIENT,
  },
  fields: tokenFields([P.SECRETS]),
  indexes: [{ name: 'tag_index', fields: ['tag'] }],
};

export default OAuthSysToken;
