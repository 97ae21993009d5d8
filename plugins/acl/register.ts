/** acl: ACL and ACLEntityRole, and the rows they grant (entity.accessGrants on every contact-owned entity). */
import type { Knex } from 'knex';
import { definePlugin } from '../../kernel';
import { CLI_PRINCIPAL, entityAccessGrants, type EntityService, type RowOperation } from '../entity-core';
import type { SmartGroups } from '../entity-group';
import { aclGrant, grantingAcls } from './grants';

export default definePlugin(({ hooks, services }) => {
  /** The smart groups this principal's ACLs reach for the operation (one query, only when there are any). */
  async function grantedSmartGroups(operation: RowOperation, contactId: number): Promise<number[]> {
    const smart = services.resolve<SmartGroups>('smartGroups');
    const ids = smart.ids();
    if (!ids.length) return [];
    const entities = services
      .resolve<EntityService>('entityService')
      .bind({ db: services.resolve<Knex>('db'), principal: CLI_PRINCIPAL, trusted: true });
    const rows = await entities.get('ACL', {
      where: [...grantingAcls(operation, contactId), { path: 'object_id', op: 'IN', value: ids }],
      select: ['object_id'],
    });
    return rows.map((row) => Number(row.object_id));
  }

  // 4.7.0: contact-related APIs respect ACLs — through the row-access conditions, so get, getcount, joins
  // and chains all see the same rows.
  hooks.tap(entityAccessGrants, async ({ ownerField, operation, principal }) => {
    if (!ownerField || !principal.contactId || operation === 'create') return undefined;
    const added = aclGrant(ownerField, operation, principal.contactId);
    const smart = await grantedSmartGroups(operation, principal.contactId);
    if (!smart.length) return { where: [added] };
    const members = services.resolve<SmartGroups>('smartGroups').membersOf(smart, ownerField);
    return { where: [{ or: [added, ...members] }] };
  });
});
