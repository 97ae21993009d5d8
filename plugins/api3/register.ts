import { definePlugin } from '../../kernel';
import { cliCommands } from '../../host';
import { apiCliCommand, type EntityService } from '../entity-core';
import { defineGenericActions } from './generic';
import { api3Naming } from './naming';
import { createApi3Service } from './service';

export default definePlugin(({ services, actions, hooks }) => {
  hooks.tap(cliCommands, () => apiCliCommand(3, 'api3'));
  actions.naming(3, api3Naming);
  services.singleton('api3', (c) =>
    createApi3Service({
      call: c.api.call,
      db: c.db,
      paramsSchema: (entity, action) => c.actions.get(3, entity, action)?.params,
    }),
  );
  defineGenericActions(actions, services.resolve<EntityService>('entityService'));
});
