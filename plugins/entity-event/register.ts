/** entity-event: events, participants and their statuses, location blocks, payments; permissions and the payment tap. */
import { definePlugin } from '../../kernel';
import type { EntityRegistry, EntityService } from '../entity-core';
import { contributionCompleted } from '../entity-contribute';
import { permissionsCatalogue } from '../users';
import { extendEvents } from './event-lifecycle';
import { registerPaidParticipants } from './hooks-taps';
import { extendLocBlocks } from './locblock-lifecycle';
import { extendParticipants } from './participant-lifecycle';

const permission = (name: string, description: string) => ({ name, label: `CRM: ${name}`, description });

export default definePlugin(({ services, hooks }) => {
  const entities = services.resolve<EntityRegistry>('entities');
  extendEvents(entities);
  extendParticipants(entities);
  extendLocBlocks(entities, () => services.resolve<EntityService>('entityService'));
  hooks.tap(permissionsCatalogue, () => [
    permission('access events', 'Use the events component: read events and, with the other permissions, work on them'),
    permission('view events', 'Read event information (public listings, registration pages)'),
    permission('edit events', 'Create and change events, their templates and locations'),
    permission('delete events', 'Delete events'),
    permission('view participants', 'Read event participants'),
    permission('edit participants', 'Register contacts for events and change their registrations'),
    permission('register for events', 'Register oneself for events online'),
  ]);
  hooks.tap(contributionCompleted, registerPaidParticipants);
});
