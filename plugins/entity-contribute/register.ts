/** entity-contribute: contributions and their financial records, the permissions and the completion hook. */
import { definePlugin } from '../../kernel';
import type { Entities, EntityRegistry, EntityService } from '../entity-core';
import { permissionsCatalogue } from '../users';
import { defineContributionActions } from './contribution-actions';
import { extendContributions } from './contribution-lifecycle';
import './errors';
import { contributionCompleted, contributionPay } from './hooks';
import { extendPages } from './page-lifecycle';
import { defineSubmit } from './page-submit';

export default definePlugin(({ services, hooks, actions, runHook }) => {
  const entities = services.resolve<EntityRegistry>('entities');
  extendContributions(entities);
  extendPages(entities);
  hooks.tap(permissionsCatalogue, () => [
    {
      name: 'access contributions',
      label: 'CRM: access contributions',
      description: 'Read contributions and financial records',
    },
    { name: 'edit contributions', label: 'CRM: edit contributions', description: 'Record and change contributions' },
    { name: 'delete contributions', label: 'CRM: delete contributions', description: 'Delete contributions' },
    {
      name: 'make online contributions',
      label: 'CRM: make online contributions',
      description: 'Contribute through contribution pages',
    },
  ]);
  const service = () => services.resolve<EntityService>('entityService');
  const runCompleted = (contribution: Record<string, unknown>, bound: Entities) =>
    runHook(contributionCompleted, contribution, bound);
  defineContributionActions(actions, service, runCompleted);
  defineSubmit(actions, service, (request, bound) => runHook(contributionPay, request, bound), runCompleted);
});
