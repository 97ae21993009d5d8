import { definePlugin } from '../../kernel';
import { cliCommands } from '../../host';
import { apiCliCommand } from '../entity-core';
import type { EntityRegistry } from '../entity-core';
import type { EntityStore } from '../entity-core';
import { defineGenericActions } from './generic';
import { api3Naming } from './naming';
import { createApi3Service } from './service';

export default definePlugin(({ services, actions, hooks }) => {
  hooks.tap(cliCommands, () => apiCliCommand(3, 'api3'));
  actions.naming(3, api3Naming);
  services.singleton('api3', (c) => createApi3Service({ call: c.api.call, db: c.db }));
  defineGenericActions(
    actions,
    services.resolve<EntityRegistry>('entities'),
    services.resolve<EntityStore>('entityStore'),
  );
});
