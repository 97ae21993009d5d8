import { cliCommands, definePlugin, type Kernel } from '../../kernel';
import { apiCliCommand } from '../entity-core/cli';
import type { EntityService } from '../entity-core';
import { defineGenericActions } from './generic';
import { createApi4Service } from './service';

export default definePlugin(({ services, actions, hooks }) => {
  hooks.tap(cliCommands, () => apiCliCommand(4, 'api4'));
  services.singleton('api4', (c) => createApi4Service(c.kernel as Kernel));
  defineGenericActions(actions, services.resolve<EntityService>('entityService'));
});
