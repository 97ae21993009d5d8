/** acl: ACL and ACLEntityRole, and the rows they grant (entity.accessGrants on every contact-owned entity). */
import { definePlugin } from '../../kernel';
import { entityAccessGrants, type Condition } from '../entity-core';
import type { SmartGroups } from '../entity-group';
import { aclGrant, grantingAcls } from './grants';

export default definePlugin(({ hooks, services }) => {
  // 4.7.0: contact-related APIs respect ACLs — through the row-access conditions, so get, getcount, joins
  // and chains all see the same rows. All in the query: no id list, nothing read beforehand.
  hooks.tap(entityAccessGrants, ({ ownerField, operation, principal }) => {
    if (!ownerField || !principal.contactId || operation === 'create') return undefined;
    const granting = grantingAcls(operation, principal.contactId);
    const aclOn = (objects: Condition): Condition => ({ exists: { entity: 'ACL', where: [...granting, objects] } });
    // Group 0 (or none) is the reference's "All Contacts".
    const everyone = aclOn({
      or: [
        { path: 'object_id', op: 'IS NULL' },
        { path: 'object_id', op: '=', value: 0 },
      ],
    });
    // A smart group's members are its saved search's matches.
    const smart = services
      .resolve<SmartGroups>('smartGroups')
      .membersBy(ownerField)
      .map(({ id, members }): Condition => ({ and: [aclOn({ path: 'object_id', op: '=', value: id }), members] }));
    return { where: [{ or: [aclGrant(ownerField, operation, principal.contactId), everyone, ...smart] }] };
  });
});
