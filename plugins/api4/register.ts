import { definePlugin } from '../../kernel';
import { cliCommands } from '../../host';
import { apiCliCommand, type EntityService } from '../entity-core';
import { defineGenericActions } from './generic';
import { api4Naming } from './naming';
import { createApi4Service } from './service';

export default definePlugin(({ services, actions, hooks }) => {
  hooks.tap(cliCommands, () => apiCliCommand(4, 'api4'));
  actions.naming(4, api4Naming);
  services.singleton('api4', (c) => createApi4Service(c.api));
  defineGenericActions(actions, services.resolve<EntityService>('entityService'));
});
