/** acl: ACL and ACLEntityRole, and the rows they grant (entity.accessGrants on every contact-owned entity). */
import { definePlugin } from '../../kernel';
import { entityAccessGrants } from '../entity-core';
import { aclGrant } from './grants';

export default definePlugin(({ hooks }) => {
  // 4.7.0: contact-related APIs respect ACLs — through the row-access conditions, so get, getcount, joins
  // and chains all see the same rows.
  hooks.tap(entityAccessGrants, ({ ownerField, operation, principal }) => {
    if (!ownerField || !principal.contactId || operation === 'create') return undefined;
    return { where: [aclGrant(ownerField, operation, principal.contactId)] };
  });
});
