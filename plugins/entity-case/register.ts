/** entity-case: the case entities, their rules, the permissions and row access ("my cases"). */
import { definePlugin, holds, type Principal } from '../../kernel';
import { entityAccess, type Condition, type EntityRegistry, type RowAccess } from '../entity-core';
import { permissionsCatalogue } from '../users';
import { extendCases } from './case-lifecycle';

/** Cases a contact takes part in: as a client, or holding a role on the case (a relationship tied to it). */
function myCases(contactId: number): Condition[] {
  const client = [{ path: 'contact_id', op: '=' as const, value: contactId }];
  const holder = [{ path: 'contact_id_b', op: '=' as const, value: contactId }];
  return [
    {
      or: [
        { exists: { entity: 'CaseContact', field: 'case_id', where: client } },
        { exists: { entity: 'Relationship', field: 'case_id', where: holder } },
      ],
    },
  ];
}

function caseAccess(principal: Principal): RowAccess {
  if (holds('access all cases', principal.permissions)) return 'all';
  if (!principal.contactId) return 'none';
  return { where: myCases(Number(principal.contactId)) };
}

export default definePlugin(({ services, hooks }) => {
  extendCases(services.resolve<EntityRegistry>('entities'));
  hooks.tap(permissionsCatalogue, () => [
    {
      name: 'access own cases',
      label: 'CRM: access own cases',
      description: 'Cases where one is a client or holds a role',
    },
    { name: 'access all cases', label: 'CRM: access all cases', description: 'Read and work on every case' },
    { name: 'open cases', label: 'CRM: open cases', description: 'Open new cases' },
    { name: 'delete cases', label: 'CRM: delete cases', description: 'Delete cases or move them to the trash' },
    { name: 'administer cases', label: 'CRM: administer cases', description: 'Define case types' },
  ]);
  hooks.tap(entityAccess, ({ entity, operation, principal }) => {
    if (entity === 'Case') return operation === 'create' ? 'all' : caseAccess(principal);
    if (entity !== 'CaseContact' && entity !== 'CaseActivity') return undefined;
    // A client or activity link follows its case.
    const access = caseAccess(principal);
    if (access === 'all' || access === 'none') return access;
    return { where: [{ exists: { entity: 'Case', field: 'id', ref: 'case_id', where: access.where } }] };
  });
});
