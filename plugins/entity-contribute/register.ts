/** entity-contribute: contributions and their financial records, the permissions and the completion hook. */
import { definePlugin } from '../../kernel';
import type { EntityRegistry, EntityService } from '../entity-core';
import { permissionsCatalogue } from '../users';
import { defineContributionActions } from './contribution-actions';
import { extendContributions } from './contribution-lifecycle';
import { contributionCompleted } from './hooks';

export default definePlugin(({ services, hooks, actions, runHook }) => {
  const entities = services.resolve<EntityRegistry>('entities');
  extendContributions(entities);
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
  defineContributionActions(
    actions,
    () => services.resolve<EntityService>('entityService'),
    (contribution, bound) => runHook(contributionCompleted, contribution, bound),
  );
});
