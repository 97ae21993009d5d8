/** entity-member: memberships, their types and statuses, the permissions and the completion of paid memberships. */
import { definePlugin } from '../../kernel';
import type { EntityRegistry, EntityService } from '../entity-core';
import { contributionCompleted } from '../entity-contribute';
import { permissionsCatalogue } from '../users';
import { completeMemberships, extendMemberships } from './membership-lifecycle';
import { defineMembershipJob } from './job';

export default definePlugin(({ services, hooks, actions }) => {
  extendMemberships(services.resolve<EntityRegistry>('entities'));
  hooks.tap(contributionCompleted, (contribution, entities) => completeMemberships(contribution, entities));
  hooks.tap(permissionsCatalogue, () => [
    { name: 'access memberships', label: 'CRM: access memberships', description: 'Read memberships and their types' },
    { name: 'edit memberships', label: 'CRM: edit memberships', description: 'Record, renew and change memberships' },
    { name: 'delete memberships', label: 'CRM: delete memberships', description: 'Delete memberships' },
  ]);
  defineMembershipJob(actions, () => services.resolve<EntityService>('entityService'));
});
