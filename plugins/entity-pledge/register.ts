/** entity-pledge: pledges and their installments, the permissions and installments completed with contributions. */
import { definePlugin } from '../../kernel';
import type { EntityRegistry } from '../entity-core';
import { contributionCompleted } from '../entity-contribute';
import { permissionsCatalogue } from '../users';
import { completeInstallments, extendPledges } from './pledge-lifecycle';

export default definePlugin(({ services, hooks }) => {
  extendPledges(services.resolve<EntityRegistry>('entities'));
  hooks.tap(contributionCompleted, (contribution, entities) => completeInstallments(contribution, entities));
  hooks.tap(permissionsCatalogue, () => [
    { name: 'access pledges', label: 'CRM: access pledges', description: 'Read pledges and their installments' },
    { name: 'edit pledges', label: 'CRM: edit pledges', description: 'Record pledges and the payments against them' },
    { name: 'delete pledges', label: 'CRM: delete pledges', description: 'Delete pledges' },
  ]);
});
