/** entity-mailing: the mailing family, its rules, permissions and actions; sending goes through the mailer. */
import { definePlugin } from '../../kernel';
import type { EntityRegistry, EntityService } from '../entity-core';
import type { Mailer } from '../mailer';
import { permissionsCatalogue } from '../users';
import { defineMailingActions } from './mailing-actions';
import { extendMailings } from './mailing-lifecycle';

export default definePlugin(({ services, hooks, actions, log }) => {
  const entities = services.resolve<EntityRegistry>('entities');
  const mailer = () => services.resolve<Mailer>('mailer');
  extendMailings(entities, mailer);
  defineMailingActions(actions, () => services.resolve<EntityService>('entityService'), mailer, log);
  hooks.tap(permissionsCatalogue, () => [
    {
      name: 'access CiviMail',
      label: 'CiviMail: access CiviMail',
      description: 'Write, schedule, approve and send mailings',
    },
    { name: 'create mailings', label: 'CiviMail: create mailings', description: 'Write mailings (4.6.0 workflow)' },
    {
      name: 'schedule mailings',
      label: 'CiviMail: schedule mailings',
      description: 'Schedule and submit mailings (4.6.0)',
    },
    {
      name: 'approve mailings',
      label: 'CiviMail: approve mailings',
      description: 'Approve or reject mailings (4.6.0)',
    },
  ]);
});
